package com.livery.client.tuf;

/** Metadata whose expiry has passed (a freeze attack, or a release nobody re-signed). */
public class ExpiredMetadataException extends RepositoryException {
    private static final long serialVersionUID = 1L;

    public ExpiredMetadataException(String message) {
        super(message);
    }

    public ExpiredMetadataException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "ExpiredMetadata"; }

    @Override public String pythonTufName() { return "ExpiredMetadataError"; }
}
