package com.livery.client.tuf;

/** Fewer valid signatures than the threshold, by the keys the delegating role (or the trusted root) names. */
public class BadSignatureException extends RepositoryException {
    private static final long serialVersionUID = 1L;

    public BadSignatureException(String message) {
        super(message);
    }

    public BadSignatureException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "BadSignature"; }

    @Override public String pythonTufName() { return "UnsignedMetadataError"; }
}
