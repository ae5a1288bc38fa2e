package com.livery.client.http;

/**
 * The server announced or sent more bytes than the read's budget (endless data): the transfer stopped at the budget.
 * TUF calls this a download length mismatch.
 */
public final class BodyTooLongException extends TransferException {
    private static final long serialVersionUID = 1L;
    private final long limit;

    public BodyTooLongException(String message, long limit) {
        super(message);
        this.limit = limit;
    }

    /** The budget the answer went over. */
    public long limit() { return limit; }
}
