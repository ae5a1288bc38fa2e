package com.livery.client.manifest;

/** An app version as {@code minimumClientVersion} writes it: X.Y.Z, compared number by number (1.10.0 is newer than 1.9.3). */
public final class ClientVersion implements Comparable<ClientVersion> {
    public final int major, minor, patch;

    private ClientVersion(int major, int minor, int patch) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
    }

    /** The version, or null when {@code text} is not three whole numbers without sign or leading zero (one spelling per version). */
    public static ClientVersion parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 3) return null;
        int[] numbers = new int[3];
        for (int i = 0; i < 3; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 9 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) return null;
            if (part.length() > 1 && part.charAt(0) == '0') return null;
            numbers[i] = Integer.parseInt(part);
        }
        return new ClientVersion(numbers[0], numbers[1], numbers[2]);
    }

    @Override
    public int compareTo(ClientVersion other) {
        if (major != other.major) return Integer.compare(major, other.major);
        if (minor != other.minor) return Integer.compare(minor, other.minor);
        return Integer.compare(patch, other.patch);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientVersion && compareTo((ClientVersion) o) == 0;
    }

    @Override
    public int hashCode() {
        return (major * 31 + minor) * 31 + patch;
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
