package com.livery.client.tuf;

import com.livery.client.digest.Hex;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;

/**
 * A public key as TUF lists it. Verifies Ed25519 ({@code ed25519}, hex public key), ECDSA P-256
 * ({@code ecdsa}/{@code ecdsa-sha2-nistp256} with scheme {@code ecdsa-sha2-nistp256}, PEM SubjectPublicKeyInfo,
 * DER signatures) and RSA-PSS with SHA-256 ({@code rsa}/{@code rsassa-pss-sha256}, PEM), the forms securesystemslib
 * writes, with {@code java.security} alone. A key of another type, or one that does not decode, is kept as listed
 * and never verifies anything (as in python-tuf): it simply never counts toward a threshold.
 */
public final class Key {
    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it. */
    private static final byte[] ED25519_SPKI_PREFIX = Hex.decode("302a300506032b6570032100");

    private final String keyType;
    private final String scheme;
    private final String publicValue;
    private final Map<String, Object> json;
    private volatile PublicKey decoded;
    private volatile boolean decodeTried;

    private Key(String keyType, String scheme, String publicValue, Map<String, Object> json) {
        this.keyType = keyType;
        this.scheme = scheme;
        this.publicValue = publicValue;
        this.json = json;
    }

    /** Reads a key: {@code keytype}, {@code scheme} and {@code keyval.public} must be text; values are judged when used. */
    static Key read(Object value, String what) throws JsonException {
        Map<String, Object> json = JsonValues.object(value, what);
        String type = JsonValues.string(JsonValues.required(json, "keytype", what), what + " keytype");
        String scheme = JsonValues.string(JsonValues.required(json, "scheme", what), what + " scheme");
        Map<String, Object> keyval = JsonValues.object(JsonValues.required(json, "keyval", what), what + " keyval");
        String publicValue = JsonValues.string(JsonValues.required(keyval, "public", what + " keyval"), what + " keyval.public");
        return new Key(type, scheme, publicValue, json);
    }

    public String keyType() { return keyType; }

    public String scheme() { return scheme; }

    /** {@code keyval.public}: hex for Ed25519, PEM for ECDSA and RSA. */
    public String publicValue() { return publicValue; }

    /** The key's JSON as listed (its canonical form's SHA-256 is the usual key id; ids are not recomputed). */
    public Map<String, Object> json() { return json; }

    /** Whether this client can verify signatures of this key. */
    public boolean isSupported() { return publicKey() != null; }

    /** Whether {@code signatureHex} is a valid signature of {@code message} by this key. */
    public boolean verifies(String signatureHex, byte[] message) {
        PublicKey key = publicKey();
        byte[] signature = Hex.decode(signatureHex);
        if (key == null || signature == null) return false;
        try {
            switch (scheme) {
                case "ed25519": return check("Ed25519", null, key, signature, message);
                case "ecdsa-sha2-nistp256": return check("SHA256withECDSA", null, key, signature, message);
                case "rsassa-pss-sha256": {
                    // securesystemslib signs with the salt as long as the digest and verifies any salt length;
                    // java.security needs the length up front, so the digest's length and the largest are tried.
                    int modulusBits = ((RSAPublicKey) key).getModulus().bitLength();
                    int maxSalt = (modulusBits - 1 + 7) / 8 - 32 - 2;
                    return checkPss(32, key, signature, message) || (maxSalt != 32 && maxSalt > 0 && checkPss(maxSalt, key, signature, message));
                }
                default: return false;
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static boolean checkPss(int salt, PublicKey key, byte[] signature, byte[] message) throws GeneralSecurityException {
        return check("RSASSA-PSS", new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, salt, 1), key, signature, message);
    }

    private static boolean check(String algorithm, PSSParameterSpec parameters, PublicKey key, byte[] signature, byte[] message)
            throws GeneralSecurityException {
        java.security.Signature verifier = java.security.Signature.getInstance(algorithm);
        if (parameters != null) verifier.setParameter(parameters);
        verifier.initVerify(key);
        verifier.update(message);
        return verifier.verify(signature);
    }

    /** The decoded key, or null when its type and scheme are not supported or its value does not decode. */
    private PublicKey publicKey() {
        if (!decodeTried) {
            decoded = decode();
            decodeTried = true;
        }
        return decoded;
    }

    private PublicKey decode() {
        try {
            if (keyType.equals("ed25519") && scheme.equals("ed25519")) {
                byte[] raw = Hex.decode(publicValue);
                if (raw == null || raw.length != 32) return null;
                byte[] spki = new byte[ED25519_SPKI_PREFIX.length + 32];
                System.arraycopy(ED25519_SPKI_PREFIX, 0, spki, 0, ED25519_SPKI_PREFIX.length);
                System.arraycopy(raw, 0, spki, ED25519_SPKI_PREFIX.length, 32);
                return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
            }
            if ((keyType.equals("ecdsa") || keyType.equals("ecdsa-sha2-nistp256")) && scheme.equals("ecdsa-sha2-nistp256")) {
                PublicKey key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(pem(publicValue)));
                // Another curve's key under this scheme is refused: the scheme names P-256.
                return ((ECPublicKey) key).getParams().getCurve().getField().getFieldSize() == 256 ? key : null;
            }
            if (keyType.equals("rsa") && scheme.equals("rsassa-pss-sha256")) {
                return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(pem(publicValue)));
            }
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            return null;
        }
        return null;
    }

    /** The DER bytes of a PEM {@code PUBLIC KEY} block. */
    private static byte[] pem(String text) {
        String begin = "-----BEGIN PUBLIC KEY-----", end = "-----END PUBLIC KEY-----";
        int from = text.indexOf(begin), to = text.indexOf(end);
        if (from < 0 || to < from) throw new IllegalArgumentException("not a PEM public key");
        return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
    }
}
