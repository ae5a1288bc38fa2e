package com.livery.client;

import com.livery.client.json.JsonException;

/** A typed failure of the release layer: what went wrong, as a {@link Kind}, and a message that says it for a person. */
public class LiveryException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The class of a failure, named after the client vectors' vocabulary where one applies (docs/client-vectors.md). */
    public enum Kind {
        /** A document (manifest, file index, grant) that does not read as its format says. */
        MALFORMED,
        /** A file whose length or SHA-256 differs from what signed data gives. */
        LENGTH_OR_HASH_MISMATCH,
        /** A server sent more than the signed length. */
        DOWNLOAD_LENGTH_MISMATCH,
        /** An archive that would write outside its folder, holds links or devices, or breaks a cap. */
        UNSAFE_ARCHIVE,
        /** The metadata refresh failed (the TUF layer's error is the cause). */
        REFRESH,
        /** A download failed (network, HTTP status, a missing file). */
        DOWNLOAD,
        /** A voucher, token or content key problem. */
        ACCESS,
        /** Writing the cache failed (a full disk among others). */
        STORAGE,
        /** What the caller asked for cannot be done (unknown tour, app too old, no root). */
        REQUEST
    }

    private final Kind kind;

    public LiveryException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public LiveryException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** A document that does not read as its format says: the JSON layer's refusal as a {@link Kind#MALFORMED} failure. */
    public static LiveryException malformed(JsonException e) {
        return new LiveryException(Kind.MALFORMED, e.getMessage(), e);
    }

    public Kind kind() {
        return kind;
    }
}
