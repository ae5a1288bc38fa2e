package com.livery.client.tuf;

/** A transfer failure: the server could not be reached, answered an HTTP error, or broke the transfer policy. */
public class DownloadException extends TufException {
    private static final long serialVersionUID = 1L;

    public DownloadException(String message) {
        super(message);
    }

    public DownloadException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return null; }

    @Override public String pythonTufName() { return "DownloadError"; }
}
