package com.livery.client.tuf;

/** The server announced or sent more bytes than the signed length allows: the client stopped reading there. */
public class DownloadLengthMismatchException extends DownloadException {
    private static final long serialVersionUID = 1L;

    public DownloadLengthMismatchException(String message) {
        super(message);
    }

    public DownloadLengthMismatchException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "DownloadLengthMismatch"; }

    @Override public String pythonTufName() { return "DownloadLengthMismatchError"; }
}
