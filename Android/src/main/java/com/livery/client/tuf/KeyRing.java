package com.livery.client.tuf;

import java.util.Map;

/** The keys a delegating role (root, or a targets role) gives one role, and the threshold of them that must sign. */
final class KeyRing {
    private final Map<String, Key> keys;
    private final Role role;

    KeyRing(Map<String, Key> keys, Role role) {
        this.keys = keys;
        this.role = role;
    }

    /** How many distinct keys of the role validly signed {@code metadata} (each listed key id counts once). */
    int validSignatures(Metadata<?> metadata) {
        byte[] message;
        try {
            message = metadata.signedBytes();
        } catch (DeserializationException e) {
            return 0;
        }
        int count = 0;
        for (String id : role.keyIds()) {
            // The id is the one the delegating role gave the key: TUF 1.0.x lets repositories choose ids, and
            // python-tuf does not recompute them either.
            Key key = keys.get(id);
            Signature signature = metadata.signatures().get(id);
            if (key != null && signature != null && key.verifies(signature.hex(), message)) count += 1;
        }
        return count;
    }

    /** Throws unless a threshold of the role's keys signed {@code metadata}. */
    void verify(Metadata<?> metadata, String what) throws BadSignatureException {
        int valid = validSignatures(metadata);
        if (valid < role.threshold()) {
            throw new BadSignatureException(what + " metadata version " + metadata.signed().version() + " has " + valid + " valid signature"
                    + (valid == 1 ? "" : "s") + " of " + role.threshold() + " needed (signed by another key, or edited after signing)");
        }
    }
}
