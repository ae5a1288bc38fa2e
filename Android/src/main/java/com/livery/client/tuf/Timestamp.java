package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Map;

/** Timestamp: which snapshot is current. */
public final class Timestamp extends Signed {
    public static final String TYPE = "timestamp";
    private final MetaFile snapshot;

    Timestamp(Map<String, Object> json) throws JsonException {
        super(json, TYPE);
        Map<String, Object> meta = JsonValues.object(JsonValues.required(json, "meta", TYPE), "timestamp meta");
        snapshot = MetaFile.read(JsonValues.required(meta, "snapshot.json", "timestamp meta"), "timestamp's snapshot.json");
    }

    @Override public String type() { return TYPE; }

    /** The snapshot's entry ({@code meta["snapshot.json"]}). */
    public MetaFile snapshot() { return snapshot; }
}
