package com.livery.client.manifest;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;

/** How a voucher bundle's target is encrypted: its scheme and the id of its content key (docs/vouchers.md, "Encryption at rest"). */
public final class BundleEncryption {
    /** The only scheme Livery writes. */
    public static final String SCHEME = "livery-aes-256-gcm-segmented-v1";
    public final String scheme;
    public final String keyId;

    public BundleEncryption(String scheme, String keyId) {
        this.scheme = scheme;
        this.keyId = keyId;
    }

    static BundleEncryption read(Object json, String what) throws JsonException {
        JsonObject o = JsonObject.of(json, what + " encryption");
        String scheme = o.string("scheme"), keyId = o.string("keyId");
        if (keyId.length() != 32 || !keyId.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw new JsonException(what + ": encryption.keyId must be 32 lowercase hexadecimal digits");
        }
        return new BundleEncryption(scheme, keyId);
    }
}
