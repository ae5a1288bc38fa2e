package com.livery.client.voucher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.livery.client.LiveryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Encryption at rest: segments open in order only, and a sealed key opens with its device's key only. */
class ContentEncryptionTest {
    @TempDir Path dir;

    @Test
    void hkdfMatchesRfc5869TestCase1() throws Exception {
        byte[] ikm = new byte[22];
        java.util.Arrays.fill(ikm, (byte) 0x0b);
        byte[] salt = com.livery.client.digest.Hex.decode("000102030405060708090a0b0c");
        byte[] info = com.livery.client.digest.Hex.decode("f0f1f2f3f4f5f6f7f8f9");
        assertArrayEquals(com.livery.client.digest.Hex.decode("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
                ContentCrypto.hkdf(ikm, salt, info, 42));
    }

    @Test
    void segmentsDecryptAndAnyChangeIsRefused() throws Exception {
        byte[] plain = new byte[5000];
        new Random(7).nextBytes(plain);
        byte[] key = new byte[32];
        byte[] sealed = SegmentedAead.encrypt(plain, key, 1024);
        Path in = dir.resolve("c"), out = dir.resolve("p");
        Files.write(in, sealed);
        SegmentedAead.decrypt(in, out, key);
        assertArrayEquals(plain, Files.readAllBytes(out));
        sealed[100] ^= 1;
        Files.write(in, sealed);
        assertThrows(LiveryException.class, () -> SegmentedAead.decrypt(in, dir.resolve("p2"), key));
        // Cut after a whole segment: the last one must carry the final flag.
        Files.write(in, java.util.Arrays.copyOf(SegmentedAead.encrypt(plain, key, 1024), 12 + 1040));
        assertThrows(LiveryException.class, () -> SegmentedAead.decrypt(in, dir.resolve("p3"), key));
    }

    @Test
    void aSealedKeyOpensWithItsDeviceKeyOnly() throws Exception {
        byte[] device = ContentCrypto.newPrivateKey(), other = ContentCrypto.newPrivateKey();
        byte[] contentKey = new byte[32];
        new Random(3).nextBytes(contentKey);
        String keyId = "6dba2aec1ca82f618dfa90cccdbddfe5";
        // Sealed as a voucher server does (docs/vouchers.md, "Delivery").
        byte[] ephemeral = ContentCrypto.newPrivateKey();
        byte[] ephemeralPublic = ContentCrypto.publicKey(ephemeral), devicePublic = ContentCrypto.publicKey(device);
        byte[] salt = new byte[64];
        System.arraycopy(ephemeralPublic, 0, salt, 0, 32);
        System.arraycopy(devicePublic, 0, salt, 32, 32);
        byte[] wrapping = ContentCrypto.hkdf(ContentCrypto.x25519(ephemeral, devicePublic), salt, ("livery-content-key-wrap-v1:" + keyId).getBytes(StandardCharsets.UTF_8), 32);
        byte[] nonce = new byte[12];
        byte[] box = ContentCrypto.seal(wrapping, nonce, contentKey, keyId.getBytes(StandardCharsets.UTF_8));
        byte[] sealedKey = new byte[60];
        System.arraycopy(box, 0, sealedKey, 12, 48);
        WrappedContentKey wrapped = new WrappedContentKey("tour.x", keyId, ephemeralPublic, sealedKey);
        assertArrayEquals(contentKey, wrapped.unwrap(device));
        assertThrows(LiveryException.class, () -> wrapped.unwrap(other));
    }
}
