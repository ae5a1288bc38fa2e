package com.livery.client.tuf;

import com.livery.client.json.Json;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One role's metadata file (python-tuf's {@code Metadata[T]}): its typed {@code signed} part, its signatures (one
 * per key id at most) and the bytes it was read from. Reading checks the shape only; trust is
 * {@link TrustedMetadataSet}'s business.
 */
public final class Metadata<T extends Signed> {
    private final T signed;
    private final Map<String, Signature> signatures;
    private final byte[] bytes;
    private byte[] canonical;

    private Metadata(T signed, Map<String, Signature> signatures, byte[] bytes) {
        this.signed = signed;
        this.signatures = signatures;
        this.bytes = bytes;
    }

    /** Reads {@code data} as metadata of {@code type} (Root.class, Timestamp.class, Snapshot.class, Targets.class). */
    public static <T extends Signed> Metadata<T> fromBytes(byte[] data, Class<T> type) throws DeserializationException {
        try {
            return read(data, type);
        } catch (JsonException e) {
            // As python-tuf's deserializer: whatever the reading refused is a DeserializationError.
            throw new DeserializationException(e.getMessage(), e);
        }
    }

    private static <T extends Signed> Metadata<T> read(byte[] data, Class<T> type) throws JsonException {
        Map<String, Object> envelope = JsonValues.object(Json.parse(data), "TUF metadata");
        Map<String, Object> signedJson = JsonValues.object(JsonValues.required(envelope, "signed", "TUF metadata"), "signed");
        Map<String, Signature> signatures = new LinkedHashMap<>();
        for (Object item : JsonValues.array(JsonValues.required(envelope, "signatures", "TUF metadata"), "signatures")) {
            Map<String, Object> entry = JsonValues.object(item, "a signature");
            String keyId = JsonValues.string(JsonValues.required(entry, "keyid", "a signature"), "a signature's keyid");
            String sig = JsonValues.string(JsonValues.required(entry, "sig", "a signature"), "a signature's sig");
            // Two signatures under one key id could count one key twice toward a threshold.
            if (signatures.put(keyId, new Signature(keyId, sig)) != null) {
                throw new JsonException("two signatures with key id " + keyId);
            }
        }
        Signed signed;
        if (type == Root.class) signed = new Root(signedJson);
        else if (type == Timestamp.class) signed = new Timestamp(signedJson);
        else if (type == Snapshot.class) signed = new Snapshot(signedJson);
        else if (type == Targets.class) signed = new Targets(signedJson);
        else throw new IllegalArgumentException("not a role type: " + type);
        return new Metadata<>(type.cast(signed), Collections.unmodifiableMap(signatures), data.clone());
    }

    public T signed() { return signed; }

    /** Key id → signature. */
    public Map<String, Signature> signatures() { return signatures; }

    /** The bytes the metadata was read from (what the parent role's length and hashes are over). */
    public byte[] bytes() { return bytes.clone(); }

    /** The canonical JSON of {@code signed}: what signatures are made over. */
    public synchronized byte[] signedBytes() throws DeserializationException {
        // Kept: a role is verified against several key sets (its own and its delegator's) in one refresh.
        if (canonical == null) canonical = CanonicalJson.encode(signed.json());
        return canonical.clone();
    }
}
