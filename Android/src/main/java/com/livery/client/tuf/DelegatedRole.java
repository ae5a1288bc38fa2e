package com.livery.client.tuf;

import com.livery.client.digest.Hex;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;

/**
 * One delegated targets role as its delegator lists it: name, keys and threshold, whether it is terminating, and
 * the paths it may sign, as shell-style patterns ({@code paths}) or as prefixes of the SHA-256 of the path
 * ({@code path_hash_prefixes}).
 */
public final class DelegatedRole extends Role {
    private final String name;
    private final boolean terminating;
    private final List<String> paths;
    private final List<String> pathHashPrefixes;

    private DelegatedRole(String name, Role keys, boolean terminating, List<String> paths, List<String> pathHashPrefixes) {
        super(keys.keyIds(), keys.threshold());
        this.name = name;
        this.terminating = terminating;
        this.paths = paths;
        this.pathHashPrefixes = pathHashPrefixes;
    }

    /** Reads a role strictly: a name, its keys, {@code terminating}, and exactly one of the two kinds of paths. */
    static DelegatedRole read(Object value) throws JsonException {
        Map<String, Object> json = JsonValues.object(value, "a delegated role");
        String name = JsonValues.string(JsonValues.required(json, "name", "a delegated role"), "a delegated role's name");
        String what = "delegated role '" + name + "'";
        Role keys = Role.read(json, what);
        boolean terminating = JsonValues.bool(JsonValues.required(json, "terminating", what), what + " terminating");
        List<String> paths = json.containsKey("paths") ? JsonValues.strings(json.get("paths"), what + " paths") : null;
        List<String> prefixes = json.containsKey("path_hash_prefixes") ? JsonValues.strings(json.get("path_hash_prefixes"), what + " path_hash_prefixes") : null;
        if ((paths == null) == (prefixes == null)) throw new JsonException(what + " must have exactly one of paths and path_hash_prefixes");
        return new DelegatedRole(name, keys, terminating, paths, prefixes);
    }

    public String name() { return name; }

    public boolean terminating() { return terminating; }

    /** Whether the role may sign {@code target}: a pattern matches it, or its SHA-256 starts with a listed prefix. */
    public boolean isDelegatedPath(String target) {
        if (paths != null) {
            for (String pattern : paths) if (PathPattern.matches(pattern, target)) return true;
            return false;
        }
        String digest = sha256Hex(target);
        for (String prefix : pathHashPrefixes) if (digest.startsWith(prefix)) return true;
        return false;
    }

    private static String sha256Hex(String text) {
        try {
            return Hex.encode(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
