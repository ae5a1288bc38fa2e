package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Map;

/** A metadata file's entry in the timestamp or the snapshot: its version, and optionally its length and hashes. */
public final class MetaFile {
    private final long version;
    private final FileHashes file;

    private MetaFile(long version, FileHashes file) {
        this.version = version;
        this.file = file;
    }

    static MetaFile read(Object value, String what) throws JsonException {
        Map<String, Object> json = JsonValues.object(value, what);
        long version = JsonValues.integer(JsonValues.required(json, "version", what), what + " version");
        if (version < 1) throw new JsonException(what + ": version must be at least 1");
        return new MetaFile(version, FileHashes.read(json, what, false));
    }

    public long version() { return version; }

    /** The signed length and hashes, when the parent lists them. */
    public FileHashes file() { return file; }
}
