package com.livery.client.tuf;

/** A new timestamp with the trusted timestamp's version: the updater keeps the trusted one. */
public class EqualVersionNumberException extends BadVersionNumberException {
    private static final long serialVersionUID = 1L;

    public EqualVersionNumberException(String message) {
        super(message);
    }

    public EqualVersionNumberException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "BadVersionNumber"; }

    @Override public String pythonTufName() { return "EqualVersionNumberError"; }
}
