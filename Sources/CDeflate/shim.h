// libdeflate (Debian `libdeflate-dev`) deflates bundle entries held in memory; zlib (`zlib1g-dev`)
// streams the few files too large to hold (Sources/LiveryPack/ZipContainer.swift).
#include <libdeflate.h>
#include <zlib.h>
