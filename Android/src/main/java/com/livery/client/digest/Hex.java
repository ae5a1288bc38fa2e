package com.livery.client.digest;

/** Lowercase hexadecimal, as every digest and key id in Livery's documents is written. */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    public static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 15];
            out[2 * i + 1] = DIGITS[bytes[i] & 15];
        }
        return new String(out);
    }

    /** The bytes of an even-length hex text (either case), or null when it is not one. */
    public static byte[] decode(String text) {
        if (text.length() % 2 != 0) return null;
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int high = Character.digit(text.charAt(2 * i), 16), low = Character.digit(text.charAt(2 * i + 1), 16);
            if (high < 0 || low < 0) return null;
            out[i] = (byte) (high << 4 | low);
        }
        return out;
    }
}
