package com.livery.client.manifest;

import com.livery.client.digest.Sha256;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;

/** A bundle's file index as its manifest entry names it ({@code "files"}): the SHA-256 and length of the index's table (docs/deltas.md). */
public final class FileIndexReference {
    public final String sha256;
    public final int size;

    public FileIndexReference(String sha256, int size) {
        this.sha256 = sha256;
        this.size = size;
    }

    static FileIndexReference read(Object json, String what) throws JsonException {
        JsonObject o = JsonObject.of(json, what + " files");
        o.onlyKeys("sha256", "size");
        String sha = o.string("sha256");
        if (!Sha256.isDigest(sha)) throw new JsonException(what + " files: \"sha256\" must be 64 lowercase hexadecimal digits");
        long size = o.integer("size", 1);
        if (size > (4L << 20)) throw new JsonException(what + " files: a table of " + size + " bytes");
        return new FileIndexReference(sha, (int) size);
    }
}
