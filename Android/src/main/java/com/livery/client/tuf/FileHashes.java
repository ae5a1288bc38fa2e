package com.livery.client.tuf;

import com.livery.client.digest.Hex;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The length and hashes a parent role signs for a file (a metadata file in the timestamp or snapshot, a target in
 * targets metadata), checked against the bytes before they are used. sha256, sha384 and sha512 are computed; a
 * file whose hashes are all of other algorithms is refused, because it cannot be verified.
 */
public final class FileHashes {
    private final Long length;
    private final Map<String, String> hashes;

    FileHashes(Long length, Map<String, String> hashes) {
        this.length = length;
        this.hashes = hashes == null ? null : Collections.unmodifiableMap(hashes);
    }

    /** Reads {@code length} and {@code hashes} (both required for a target, optional in the snapshot and timestamp). */
    static FileHashes read(Map<String, Object> json, String what, boolean required) throws JsonException {
        Long length = null;
        Object lengthValue = json.get("length");
        if (lengthValue != null || required) {
            length = JsonValues.integer(JsonValues.required(json, "length", what), what + " length");
            if (length < 0) throw new JsonException(what + ": length must not be negative");
        }
        Map<String, String> hashes = null;
        Object hashesValue = json.get("hashes");
        if (hashesValue != null || required) {
            Map<String, Object> table = JsonValues.object(JsonValues.required(json, "hashes", what), what + " hashes");
            if (table.isEmpty()) throw new JsonException(what + ": hashes must not be empty");
            hashes = new LinkedHashMap<>();
            for (Map.Entry<String, Object> entry : table.entrySet()) hashes.put(entry.getKey(), JsonValues.string(entry.getValue(), what + " " + entry.getKey() + " hash"));
        }
        return new FileHashes(length, hashes);
    }

    public Optional<Long> length() { return Optional.ofNullable(length); }

    /** Algorithm → hex digest, in the order the metadata lists them; empty when none are signed. */
    public Map<String, String> hashes() { return hashes == null ? Map.of() : hashes; }

    /** Checks {@code data} against the signed length and every hash this client can compute. */
    public void verify(byte[] data, String what) throws LengthOrHashMismatchException {
        if (length != null && data.length != length) {
            throw new LengthOrHashMismatchException(what + " is " + data.length + " bytes, its signed length is " + length);
        }
        if (hashes == null) return;
        Map<String, MessageDigest> digests = digests(what);
        for (MessageDigest digest : digests.values()) digest.update(data);
        check(digests, what);
    }

    /** {@link #verify(byte[], String)} for a file, read as a stream (a bundle may be larger than memory allows). */
    public void verify(Path file, String what) throws LengthOrHashMismatchException, IOException {
        long size = Files.size(file);
        if (length != null && size != length) {
            throw new LengthOrHashMismatchException(what + " is " + size + " bytes, its signed length is " + length);
        }
        if (hashes == null) return;
        Map<String, MessageDigest> digests = digests(what);
        byte[] buffer = new byte[64 << 10];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                for (MessageDigest digest : digests.values()) digest.update(buffer, 0, n);
            }
        }
        check(digests, what);
    }

    private Map<String, MessageDigest> digests(String what) throws LengthOrHashMismatchException {
        Map<String, MessageDigest> digests = new LinkedHashMap<>();
        for (String algorithm : hashes.keySet()) {
            String java = javaName(algorithm);
            if (java == null) continue;
            try {
                digests.put(algorithm, MessageDigest.getInstance(java));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(java + " is missing from this Java runtime", e);
            }
        }
        if (digests.isEmpty()) {
            throw new LengthOrHashMismatchException(what + " lists only hashes this client cannot compute (" + String.join(", ", new TreeSet<>(hashes.keySet())) + ")");
        }
        return digests;
    }

    private void check(Map<String, MessageDigest> digests, String what) throws LengthOrHashMismatchException {
        for (Map.Entry<String, MessageDigest> entry : digests.entrySet()) {
            String actual = Hex.encode(entry.getValue().digest());
            if (!actual.equalsIgnoreCase(hashes.get(entry.getKey()))) {
                throw new LengthOrHashMismatchException(what + " does not match its signed " + entry.getKey() + " hash (tampered, corrupt, or mixed from another release)");
            }
        }
    }

    private static String javaName(String algorithm) {
        switch (algorithm) {
            case "sha256": return "SHA-256";
            case "sha384": return "SHA-384";
            case "sha512": return "SHA-512";
            default: return null;
        }
    }
}
