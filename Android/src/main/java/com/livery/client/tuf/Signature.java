package com.livery.client.tuf;

/** A signature of a metadata envelope: the key id it claims and the signature bytes as hex. */
public final class Signature {
    private final String keyId;
    private final String hex;

    public Signature(String keyId, String hex) {
        this.keyId = keyId;
        this.hex = hex;
    }

    public String keyId() { return keyId; }

    public String hex() { return hex; }
}
