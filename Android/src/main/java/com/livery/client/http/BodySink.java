package com.livery.client.http;

import java.io.IOException;

/** Where the body of a 200 or 206 answer goes: memory or a file. */
interface BodySink {
    /** Called once the answer is known to be the file (or range) asked for, before its first byte. */
    void begin(ResponseHead head) throws IOException;

    void write(byte[] bytes, int offset, int length) throws IOException;

    /** The bytes held in memory, empty for a file. */
    byte[] bytes();
}
