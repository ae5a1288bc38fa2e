package com.livery.client.voucher;

import java.util.Base64;

/** Base64url without padding (RFC 4648 §5), read in its canonical spelling only. java.util.Base64 needs Android API 26. */
public final class Base64Url {
    private Base64Url() {}

    public static String encode(byte[] data) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(data);
    }

    /** The bytes, or null for text that is not canonical base64url. */
    public static byte[] decode(String text) {
        if (text.isEmpty() || text.length() > (1 << 16) || !text.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_')) return null;
        try {
            byte[] data = Base64.getUrlDecoder().decode(text);
            // The last character's unused bits must be zero, or one value would have several spellings.
            return encode(data).equals(text) ? data : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
