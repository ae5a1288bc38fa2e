package com.livery.client.digest;

import com.livery.client.LiveryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 in lowercase hex, of bytes or of a file checked against a signed length and digest. */
public final class Sha256 {
    private Sha256() {}

    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    public static String hex(byte[] bytes) {
        return Hex.encode(digest().digest(bytes));
    }

    /** True for 64 lowercase hexadecimal digits. */
    public static boolean isDigest(String text) {
        if (text == null || text.length() != 64) return false;
        for (int i = 0; i < 64; i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
        }
        return true;
    }

    /**
     * Checks that {@code file} has exactly {@code length} bytes whose SHA-256 is {@code sha256}; reading stops
     * as soon as the file runs past the length, so a huge file costs no more than the signed length.
     */
    public static void verifyFile(Path file, long length, String sha256, String name) throws LiveryException {
        MessageDigest digest = digest();
        long size = 0;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                size += n;
                if (size > length) {
                    throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, name + " is longer than its signed length " + length);
                }
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot read " + file + ": " + e.getMessage(), e);
        }
        if (size != length) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, name + " is " + size + " bytes, its signed length is " + length);
        }
        if (!Hex.encode(digest.digest()).equals(sha256)) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, name + " does not match its signed SHA-256");
        }
    }
}
