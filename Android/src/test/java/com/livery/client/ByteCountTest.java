package com.livery.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Sizes in the unit that fits, as LiveryClient writes them: a refusal for 52 KB never reads "0.1 MB" or "0.0 MB". */
class ByteCountTest {

    @Test
    void eachSizeIsWrittenInTheUnitThatFits() {
        assertEquals("0 bytes", ByteCount.text(0));
        assertEquals("1 byte", ByteCount.text(1));
        assertEquals("999 bytes", ByteCount.text(999));
        assertEquals("1.0 KB", ByteCount.text(1000));
        assertEquals("52.3 KB", ByteCount.text(52_300));
        assertEquals("1.2 MB", ByteCount.text(1_200_000));
        assertEquals("3.4 GB", ByteCount.text(3_400_000_000L));
    }

    @Test
    void theSpaceRefusalsGiveTheirSizesInTheirUnits() {
        assertEquals("sonic-walkscape release 2 needs 172.3 KB on the disk of /cache (52.3 KB to download, 120.0 KB to install), "
                + "and 41.3 MB is free: free some space; release 1 stays installed",
                new InsufficientSpace("sonic-walkscape", 2, 52_300, 120_000, 41_300_000, "/cache", 1).getMessage());
        assertEquals("sonic-walkscape: the disk of /cache is full (812 bytes free): writing core.zip: No space left on device: free some space; nothing was installed",
                new CacheFull("sonic-walkscape", Path.of("/cache"), 812, -1, "writing core.zip: No space left on device", -1, null).getMessage());
    }
}
