package com.livery.client.install;

/** A wanted bundle as the signed metadata describes it: its target name, length, SHA-256 and path on the server. */
public final class WantedBundle {
    public final String id, name, sha256, path;
    public final long length;

    public WantedBundle(String id, String name, long length, String sha256, String path) {
        this.id = id;
        this.name = name;
        this.length = length;
        this.sha256 = sha256;
        this.path = path;
    }

    /** The file name on the server ({@code <sha256>.<id>.<format>}), which a signed URL must name. */
    public String fileName() {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
