import LiveryTUF
