package com.livery.client.tuf;

/** A local failure: trusted metadata or a target that cannot be read or written. */
public class StorageException extends TufException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return null; }

    @Override public String pythonTufName() { return "StorageError"; }
}
