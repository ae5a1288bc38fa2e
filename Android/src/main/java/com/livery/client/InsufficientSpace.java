package com.livery.client;

import java.util.Locale;

/** The cache's file system has less free space than the fetch needs: nothing was downloaded, the installed release stays. */
public final class InsufficientSpace extends LiveryException {
    private static final long serialVersionUID = 1L;
    public final long download, install, available;

    public InsufficientSpace(String tenant, long release, long download, long install, long available, String cache, long kept) {
        super(Kind.STORAGE, String.format(Locale.ROOT, "%s release %d needs %s on the disk of %s (%s to download, %s to install), and %s is free: free some space%s",
                tenant, release, ByteCount.text(download + install), cache, ByteCount.text(download), ByteCount.text(install), ByteCount.text(available),
                kept >= 0 ? "; release " + kept + " stays installed" : "; nothing was installed"));
        this.download = download;
        this.install = install;
        this.available = available;
    }
}
