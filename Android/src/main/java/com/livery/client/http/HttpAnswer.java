package com.livery.client.http;

/**
 * A finished answer: its head and, for a read into memory, its body. For an error answer (anything but 200 and 206)
 * the body is its first {@link TransferPolicy#errorBodyLimit()} bytes at most.
 */
public final class HttpAnswer {
    private final ResponseHead head;
    private final byte[] body;
    private final long bodyBytes;

    HttpAnswer(ResponseHead head, byte[] body, long bodyBytes) {
        this.head = head;
        this.body = body;
        this.bodyBytes = bodyBytes;
    }

    public int status() { return head.status(); }

    public ResponseHead head() { return head; }

    /** The body held in memory (empty for a read into a file). */
    public byte[] body() { return body.clone(); }

    /** Body bytes received for this answer (into memory or into the file). */
    public long bodyBytes() { return bodyBytes; }

    /** 200 or 206: the file (or the range) asked for. */
    public boolean isSuccess() { return head.status() == 200 || head.status() == 206; }
}
