package com.livery.client.http;

import java.io.IOException;

/**
 * An HTTP read that failed or was refused by the {@link TransferPolicy}: unreachable server, slow retrieval, a
 * content coding, a redirect refused, a range answer that does not start where asked. Its message names the file by
 * URL without the query (a signed URL's query is a credential).
 */
public class TransferException extends IOException {
    private static final long serialVersionUID = 1L;

    public TransferException(String message) {
        super(message);
    }

    public TransferException(String message, Throwable cause) {
        super(message, cause);
    }
}
