package com.livery.client.tuf;

import com.livery.client.digest.Hex;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Signed TUF metadata made in the test, with Ed25519 keys from java.security: the state machine's tests feed its
 * bytes to {@link TrustedMetadataSet} with no server, clock or disk. The documents have python-tuf's layout.
 */
final class TestRepository {
    static final String FAR = "2100-01-01T00:00:00Z";
    static final String PAST = "2000-01-01T00:00:00Z";

    /** A test key: its key pair, TUF JSON and key id. */
    static final class TestKey {
        final KeyPair pair;
        final Map<String, Object> json;
        final String id;

        TestKey() throws GeneralSecurityException {
            pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] spki = pair.getPublic().getEncoded();
            String hex = Hex.encode(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
            json = Map.of("keytype", "ed25519", "scheme", "ed25519", "keyval", Map.of("public", hex));
            try {
                id = Hex.encode(MessageDigest.getInstance("SHA-256").digest(CanonicalJson.encode(json)));
            } catch (DeserializationException e) {
                throw new IllegalStateException(e);
            }
        }

        String sign(byte[] message) throws GeneralSecurityException {
            java.security.Signature signer = java.security.Signature.getInstance("Ed25519");
            signer.initSign(pair.getPrivate());
            signer.update(message);
            return Hex.encode(signer.sign());
        }
    }

    private TestRepository() {}

    /** The metadata file: {@code signed} with one signature by each of {@code keys} (in order, repeats kept). */
    static byte[] envelope(Map<String, Object> signed, TestKey... keys) throws Exception {
        byte[] message = CanonicalJson.encode(signed);
        List<Object> signatures = new ArrayList<>();
        for (TestKey key : keys) signatures.add(Map.of("keyid", key.id, "sig", key.sign(message)));
        return CanonicalJson.encode(Map.of("signed", signed, "signatures", signatures));
    }

    static Map<String, Object> common(String type, long version, String expires) {
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("_type", type);
        signed.put("spec_version", "1.0.31");
        signed.put("version", version);
        signed.put("expires", expires);
        return signed;
    }

    /** Root v{@code version}: each top-level role signed by its one key (threshold 1), root's threshold {@code threshold}. */
    static Map<String, Object> root(long version, String expires, List<TestKey> rootKeys, int threshold, TestKey timestamp, TestKey snapshot, TestKey targets) {
        Map<String, Object> signed = common("root", version, expires);
        signed.put("consistent_snapshot", true);
        Map<String, Object> keys = new LinkedHashMap<>();
        List<Object> rootIds = new ArrayList<>();
        for (TestKey k : rootKeys) {
            keys.put(k.id, k.json);
            rootIds.add(k.id);
        }
        for (TestKey k : List.of(timestamp, snapshot, targets)) keys.put(k.id, k.json);
        signed.put("keys", keys);
        signed.put("roles", Map.of("root", Map.of("keyids", rootIds, "threshold", (long) threshold),
                "timestamp", Map.of("keyids", List.of(timestamp.id), "threshold", 1L),
                "snapshot", Map.of("keyids", List.of(snapshot.id), "threshold", 1L),
                "targets", Map.of("keyids", List.of(targets.id), "threshold", 1L)));
        return signed;
    }

    static Map<String, Object> timestamp(long version, String expires, long snapshotVersion, byte[] snapshot) throws Exception {
        Map<String, Object> signed = common("timestamp", version, expires);
        signed.put("meta", Map.of("snapshot.json", Map.of("version", snapshotVersion, "length", (long) snapshot.length, "hashes", Map.of("sha256", sha256(snapshot)))));
        return signed;
    }

    /** Snapshot listing each role file ({@code "targets"}, delegated names) at a version. */
    static Map<String, Object> snapshot(long version, String expires, Map<String, Long> roles) {
        Map<String, Object> signed = common("snapshot", version, expires);
        Map<String, Object> meta = new LinkedHashMap<>();
        roles.forEach((role, v) -> meta.put(role + ".json", Map.of("version", v)));
        signed.put("meta", meta);
        return signed;
    }

    static Map<String, Object> targets(long version, String expires, Map<String, byte[]> files) throws Exception {
        Map<String, Object> signed = common("targets", version, expires);
        Map<String, Object> table = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            table.put(f.getKey(), Map.of("length", (long) f.getValue().length, "hashes", Map.of("sha256", sha256(f.getValue()))));
        }
        signed.put("targets", table);
        return signed;
    }

    /** {@code targets} with delegations to {@code roles}: name → (key, paths, terminating). */
    static Map<String, Object> delegating(Map<String, Object> targets, List<Object[]> roles) {
        Map<String, Object> keys = new LinkedHashMap<>();
        List<Object> list = new ArrayList<>();
        for (Object[] role : roles) {
            TestKey key = (TestKey) role[1];
            keys.put(key.id, key.json);
            list.add(Map.of("name", role[0], "keyids", List.of(key.id), "threshold", 1L, "paths", role[2], "terminating", role[3]));
        }
        Map<String, Object> out = new LinkedHashMap<>(targets);
        out.put("delegations", Map.of("keys", keys, "roles", list));
        return out;
    }

    static String sha256(byte[] data) throws Exception {
        return Hex.encode(MessageDigest.getInstance("SHA-256").digest(data));
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
