import LiveryLoad
