package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Root: the keys of every top-level role, and whether files are named by version (consistent snapshots). */
public final class Root extends Signed {
    public static final String TYPE = "root";
    private static final Set<String> ROLES = Set.of("root", "timestamp", "snapshot", "targets");

    private final boolean consistentSnapshot;
    private final Map<String, Key> keys;
    private final Map<String, Role> roles;

    Root(Map<String, Object> json) throws JsonException {
        super(json, TYPE);
        Object consistent = json.get("consistent_snapshot");
        consistentSnapshot = consistent != null && JsonValues.bool(consistent, "consistent_snapshot");
        keys = readKeys(JsonValues.required(json, "keys", TYPE), "root keys");
        Map<String, Object> table = JsonValues.object(JsonValues.required(json, "roles", TYPE), "root roles");
        if (!table.keySet().equals(ROLES)) throw new JsonException("root must list exactly the roles root, targets, snapshot and timestamp");
        Map<String, Role> roles = new LinkedHashMap<>();
        for (String name : table.keySet()) roles.put(name, Role.read(JsonValues.object(table.get(name), "root's " + name + " role"), "root's " + name + " role"));
        this.roles = Collections.unmodifiableMap(roles);
    }

    static Map<String, Key> readKeys(Object value, String what) throws JsonException {
        Map<String, Key> keys = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : JsonValues.object(value, what).entrySet()) {
            keys.put(entry.getKey(), Key.read(entry.getValue(), what + " " + entry.getKey()));
        }
        return Collections.unmodifiableMap(keys);
    }

    @Override public String type() { return TYPE; }

    public boolean consistentSnapshot() { return consistentSnapshot; }

    public Map<String, Key> keys() { return keys; }

    public Map<String, Role> roles() { return roles; }

    /**
     * Throws unless a threshold of the keys root gives top-level role {@code role} signed {@code delegate};
     * {@code what} names the metadata in the message.
     */
    public void verifyDelegate(String role, Metadata<?> delegate, String what) throws BadSignatureException {
        new KeyRing(keys, roles.get(role)).verify(delegate, what);
    }
}
