package com.livery.client.digest;

/** Lowercase hexadecimal, as every digest, key id and signature in Livery's and TUF's documents is written. */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    public static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xF];
        }
        return new String(out);
    }

    /** The bytes of an even-length hex text (either case), or null when it is not one. */
    public static byte[] decode(String hex) {
        if (hex.length() % 2 != 0) return null;
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int high = digit(hex.charAt(2 * i)), low = digit(hex.charAt(2 * i + 1));
            if (high < 0 || low < 0) return null;
            out[i] = (byte) (high << 4 | low);
        }
        return out;
    }

    /** ASCII hex digits only: {@link Character#digit} also takes other scripts' digits. */
    private static int digit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
}
