package com.livery.client.tuf;

/** Metadata that fails verification: the parent of the more precise metadata errors. */
public class RepositoryException extends TufException {
    private static final long serialVersionUID = 1L;

    public RepositoryException(String message) {
        super(message);
    }

    public RepositoryException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "RepositoryError"; }

    @Override public String pythonTufName() { return "RepositoryError"; }
}
