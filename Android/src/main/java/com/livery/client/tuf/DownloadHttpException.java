package com.livery.client.tuf;

/** The server answered a status other than the file (a 404 for a file the metadata names, a 500, …). */
public class DownloadHttpException extends DownloadException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public DownloadHttpException(String message, int status) {
        super(message);
        this.status = status;
    }

    /** The HTTP status. */
    public int status() { return status; }
}
