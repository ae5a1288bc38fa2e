package com.livery.client.tuf;

import java.nio.charset.StandardCharsets;

/**
 * How role names and target paths become parts of URLs and file names, byte for byte as python-tuf makes them
 * ({@code urllib.parse.quote(name, "")}): every byte of the name's UTF-8 except ASCII letters, digits and
 * {@code _.-~} becomes {@code %XX} (uppercase hex), {@code /} included, so a hostile name ({@code ../x}, {@code ?},
 * {@code #}) can neither leave its folder nor change a URL's meaning.
 */
public final class RoleNames {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private RoleNames() {}

    public static String quoted(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            boolean plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' || c == '~';
            if (plain) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }

    /** The unversioned file a client keeps a role's metadata in: {@code <quoted name>.json}. */
    public static String fileName(String role) {
        return quoted(role) + ".json";
    }

    /** A role's file on the server: {@code <version>.<quoted name>.json} when {@code version} is given, else unversioned. */
    public static String metadataPath(String role, Long version) {
        return (version != null ? version + "." : "") + quoted(role) + ".json";
    }

    /**
     * A target's path under the targets URL: each {@code /}-separated part quoted as above ({@code /} stays a
     * separator: targets live in folders), and in a consistent-snapshot repository the file's name prefixed with
     * its hash ({@code dir/<hash>.name}).
     */
    public static String targetPath(TargetFile target, boolean consistentSnapshot) {
        String[] parts = target.path().split("/", -1);
        if (consistentSnapshot) parts[parts.length - 1] = target.namingHash() + "." + parts[parts.length - 1];
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) out.append('/');
            out.append(quoted(parts[i]));
        }
        return out.toString();
    }
}
