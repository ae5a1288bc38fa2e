package com.livery.client.install;

import java.util.Map;

/** A target as the verified TUF metadata describes it: its name, length, SHA-256 and {@code custom} object. */
public final class SignedTarget {
    public final String name, sha256;
    public final long length;
    public final Map<String, Object> custom;

    public SignedTarget(String name, long length, String sha256, Map<String, Object> custom) {
        this.name = name;
        this.length = length;
        this.sha256 = sha256;
        this.custom = custom == null ? Map.of() : custom;
    }
}
