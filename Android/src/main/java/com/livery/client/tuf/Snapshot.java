package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Snapshot: the version (and optionally length and hashes) of every targets role's file. */
public final class Snapshot extends Signed {
    public static final String TYPE = "snapshot";
    private final Map<String, MetaFile> meta;

    Snapshot(Map<String, Object> json) throws JsonException {
        super(json, TYPE);
        Map<String, MetaFile> meta = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : JsonValues.object(JsonValues.required(json, "meta", TYPE), "snapshot meta").entrySet()) {
            meta.put(entry.getKey(), MetaFile.read(entry.getValue(), "snapshot's " + entry.getKey()));
        }
        this.meta = Collections.unmodifiableMap(meta);
    }

    @Override public String type() { return TYPE; }

    /** File name ({@code targets.json}, {@code <role>.json}) → entry. */
    public Map<String, MetaFile> meta() { return meta; }
}
