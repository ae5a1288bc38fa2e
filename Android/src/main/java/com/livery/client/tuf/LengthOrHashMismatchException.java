package com.livery.client.tuf;

/** A file whose length or hash differs from what its parent role signed (mix-and-match, tampering). */
public class LengthOrHashMismatchException extends RepositoryException {
    private static final long serialVersionUID = 1L;

    public LengthOrHashMismatchException(String message) {
        super(message);
    }

    public LengthOrHashMismatchException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "LengthOrHashMismatch"; }

    @Override public String pythonTufName() { return "LengthOrHashMismatchError"; }
}
