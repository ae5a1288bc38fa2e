package com.livery.client;

import java.util.Locale;

/** The cache's file system has less free space than the fetch needs: nothing was downloaded, the installed release stays. */
public final class InsufficientSpace extends LiveryException {
    private static final long serialVersionUID = 1L;
    public final long download, install, available;

    public InsufficientSpace(String tenant, long release, long download, long install, long available, String cache, long kept) {
        super(Kind.STORAGE, String.format(Locale.ROOT, "%s release %d needs %.1f MB on the disk of %s (%.1f MB to download, %.1f MB to install), and %.1f MB is free: free some space%s",
                tenant, release, (download + install) / 1e6, cache, download / 1e6, install / 1e6, available / 1e6,
                kept >= 0 ? "; release " + kept + " stays installed" : "; nothing was installed"));
        this.download = download;
        this.install = install;
        this.available = available;
    }
}
