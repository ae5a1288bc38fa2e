package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/** The key ids allowed to sign a role and how many of them must (as root lists its roles). */
public class Role {
    private final List<String> keyIds;
    private final int threshold;

    public Role(List<String> keyIds, int threshold) {
        this.keyIds = List.copyOf(keyIds);
        this.threshold = threshold;
    }

    /** Reads {@code keyids} and {@code threshold}: unique ids, a threshold of at least 1. */
    static Role read(Map<String, Object> json, String what) throws JsonException {
        List<String> ids = JsonValues.strings(JsonValues.required(json, "keyids", what), what + " keyids");
        if (new HashSet<>(ids).size() != ids.size()) throw new JsonException(what + " lists a key id twice");
        long threshold = JsonValues.integer(JsonValues.required(json, "threshold", what), what + " threshold");
        if (threshold < 1 || threshold > Integer.MAX_VALUE) throw new JsonException(what + " has threshold " + threshold + "; it must be at least 1");
        return new Role(ids, (int) threshold);
    }

    public List<String> keyIds() { return keyIds; }

    public int threshold() { return threshold; }
}
