package com.livery.client.tuf;

/**
 * A failure of TUF metadata, of the trust workflow or of fetching, explained for people. Its class says what went
 * wrong; {@link #vectorClass()} maps it onto the error vocabulary of docs/client-vectors.md ("Error classes"), whose
 * names follow python-tuf's exceptions, and {@link #pythonTufName()} names the python-tuf exception it stands for.
 */
public abstract class TufException extends Exception {
    private static final long serialVersionUID = 1L;

    protected TufException(String message) {
        super(message);
    }

    protected TufException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The class of the client-vectors vocabulary ("BadSignature", "RepositoryError", …), or null for none. */
    public abstract String vectorClass();

    /** The python-tuf exception this stands for ({@code UnsignedMetadataError}, …). */
    public abstract String pythonTufName();
}
