package com.livery.client.voucher;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The primitives of encryption at rest (docs/vouchers.md): X25519 with raw 32-byte keys (as the redemption answer and
 * the {@code device-key} file hold them), HKDF-SHA256 (RFC 5869, from HMAC: the JDK has no HKDF), AES-256-GCM.
 */
public final class ContentCrypto {
    private ContentCrypto() {}

    /** A new X25519 private key, raw (32 bytes). */
    public static byte[] newPrivateKey() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("X25519");
        XECPrivateKey key = (XECPrivateKey) generator.generateKeyPair().getPrivate();
        return key.getScalar().orElseThrow(() -> new GeneralSecurityException("the X25519 provider does not expose raw keys"));
    }

    /** The raw public key of a raw private key: X25519 with the base point (u = 9). */
    public static byte[] publicKey(byte[] privateKey) throws GeneralSecurityException {
        byte[] basePoint = new byte[32];
        basePoint[0] = 9;
        return x25519(privateKey, basePoint);
    }

    /** X25519(private, public), both raw; refuses an all-zero result (a low-order public key). */
    public static byte[] x25519(byte[] privateKey, byte[] publicKey) throws GeneralSecurityException {
        KeyFactory factory = KeyFactory.getInstance("X25519");
        PrivateKey priv = factory.generatePrivate(new XECPrivateKeySpec(NamedParameterSpec.X25519, privateKey.clone()));
        // RFC 7748: the u-coordinate is little-endian, and its top bit is ignored.
        byte[] reversed = new byte[32];
        for (int i = 0; i < 32; i++) reversed[i] = publicKey[31 - i];
        reversed[0] &= 0x7F;
        PublicKey pub = factory.generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, new BigInteger(1, reversed)));
        KeyAgreement agreement = KeyAgreement.getInstance("X25519");
        agreement.init(priv);
        agreement.doPhase(pub, true);
        byte[] shared = agreement.generateSecret();
        boolean zero = true;
        for (byte b : shared) zero &= b == 0;
        if (zero) throw new GeneralSecurityException("X25519 gave the all-zero secret (a low-order key)");
        return shared;
    }

    /** The raw bytes of a JDK X25519 public key. */
    static byte[] raw(XECPublicKey key) {
        byte[] big = key.getU().toByteArray();
        byte[] out = new byte[32];
        for (int i = 0; i < 32 && i < big.length; i++) out[i] = big[big.length - 1 - i];
        return out;
    }

    public static byte[] hmacSha256(byte[] key, byte[] message) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.length == 0 ? new byte[32] : key, "HmacSHA256"));
        return mac.doFinal(message);
    }

    /** HKDF-SHA256 (RFC 5869): extract with {@code salt}, expand with {@code info} to {@code length} bytes. */
    public static byte[] hkdf(byte[] ikm, byte[] salt, byte[] info, int length) throws GeneralSecurityException {
        byte[] prk = hmacSha256(salt, ikm);
        byte[] out = new byte[length];
        byte[] block = new byte[0];
        int done = 0;
        for (int counter = 1; done < length; counter++) {
            byte[] input = new byte[block.length + info.length + 1];
            System.arraycopy(block, 0, input, 0, block.length);
            System.arraycopy(info, 0, input, block.length, info.length);
            input[input.length - 1] = (byte) counter;
            block = hmacSha256(prk, input);
            int n = Math.min(block.length, length - done);
            System.arraycopy(block, 0, out, done, n);
            done += n;
        }
        return out;
    }

    /** AES-256-GCM open of {@code ciphertextAndTag} (the 16-byte tag last); throws on any change. */
    public static byte[] open(byte[] key, byte[] nonce, byte[] ciphertextAndTag, byte[] aad) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        cipher.updateAAD(aad);
        return cipher.doFinal(ciphertextAndTag);
    }

    /** AES-256-GCM seal: ciphertext followed by the 16-byte tag (tests seal with it what the client opens). */
    public static byte[] seal(byte[] key, byte[] nonce, byte[] plaintext, byte[] aad) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        cipher.updateAAD(aad);
        return cipher.doFinal(plaintext);
    }
}
