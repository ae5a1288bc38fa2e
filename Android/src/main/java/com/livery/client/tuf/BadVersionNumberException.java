package com.livery.client.tuf;

/** A version lower than the trusted one (rollback), or not the version the parent role names. */
public class BadVersionNumberException extends RepositoryException {
    private static final long serialVersionUID = 1L;

    public BadVersionNumberException(String message) {
        super(message);
    }

    public BadVersionNumberException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "BadVersionNumber"; }

    @Override public String pythonTufName() { return "BadVersionNumberError"; }
}
