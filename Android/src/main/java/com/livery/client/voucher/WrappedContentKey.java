package com.livery.client.voucher;

import com.livery.client.LiveryException;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A content key sealed for one device (the redemption answer's {@code keys}): X25519 between an ephemeral key and the
 * device key, HKDF-SHA256 (salt: ephemeral ‖ device public key; info: "livery-content-key-wrap-v1:" + keyId) to a
 * wrapping key, AES-256-GCM over the content key with the key id as additional data.
 */
public final class WrappedContentKey {
    public final String bundle, keyId;
    public final byte[] ephemeral, sealed;

    public WrappedContentKey(String bundle, String keyId, byte[] ephemeral, byte[] sealed) {
        this.bundle = bundle;
        this.keyId = keyId;
        this.ephemeral = ephemeral.clone();
        this.sealed = sealed.clone();
    }

    static WrappedContentKey read(Object json, String what) throws JsonException {
        JsonObject o = JsonObject.of(json, what);
        byte[] ephemeral = Base64Url.decode(o.string("ephemeral")), sealed = Base64Url.decode(o.string("sealed"));
        if (ephemeral == null || ephemeral.length != 32 || sealed == null || sealed.length != 12 + 32 + 16) {
            throw new JsonException(what + ": \"ephemeral\" and \"sealed\" must be base64url keys of 32 and 60 bytes");
        }
        return new WrappedContentKey(o.string("bundle"), o.string("keyId"), ephemeral, sealed);
    }

    Map<String, Object> json() {
        Map<String, Object> m = new TreeMap<>();
        m.put("bundle", bundle);
        m.put("keyId", keyId);
        m.put("ephemeral", Base64Url.encode(ephemeral));
        m.put("sealed", Base64Url.encode(sealed));
        return m;
    }

    /** The 32-byte content key, opened with the device's raw private key; throws when sealed for another device or changed. */
    public byte[] unwrap(byte[] devicePrivateKey) throws LiveryException {
        try {
            byte[] shared = ContentCrypto.x25519(devicePrivateKey, ephemeral);
            byte[] devicePublic = ContentCrypto.publicKey(devicePrivateKey);
            byte[] salt = new byte[64];
            System.arraycopy(ephemeral, 0, salt, 0, 32);
            System.arraycopy(devicePublic, 0, salt, 32, 32);
            byte[] wrapping = ContentCrypto.hkdf(shared, salt, ("livery-content-key-wrap-v1:" + keyId).getBytes(StandardCharsets.UTF_8), 32);
            byte[] key = ContentCrypto.open(wrapping, Arrays.copyOf(sealed, 12), Arrays.copyOfRange(sealed, 12, sealed.length), keyId.getBytes(StandardCharsets.UTF_8));
            if (key.length != 32) throw new GeneralSecurityException("bad key length");
            return key;
        } catch (GeneralSecurityException e) {
            throw new LiveryException(LiveryException.Kind.ACCESS, "the content key of '" + bundle + "' does not open with this device's key (sealed for another device, or changed)");
        }
    }
}
