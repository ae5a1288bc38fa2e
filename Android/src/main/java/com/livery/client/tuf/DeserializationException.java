package com.livery.client.tuf;

/** Not metadata of the expected shape: bad JSON, a field of the wrong type or the wrong role type, a key id signing twice. */
public class DeserializationException extends RepositoryException {
    private static final long serialVersionUID = 1L;

    public DeserializationException(String message) {
        super(message);
    }

    public DeserializationException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "RepositoryError"; }

    @Override public String pythonTufName() { return "DeserializationError"; }
}
