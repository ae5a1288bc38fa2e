package com.livery.client.extract;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A raw deflate stream of exactly {@code length} bytes, fed to an {@link Inflater} in chunks and never past
 * its end: the zip extractor and delta installs read entries this way, so a crafted stream that wants
 * more input than its entry holds is refused instead of read on.
 */
public final class BoundedInflate {
    /** Gives {@code count} bytes of the stream starting {@code offset} bytes from its start. */
    public interface Source {
        byte[] read(long offset, int count) throws UnsafeArchive;
    }

    /** Receives inflated bytes. */
    public interface Sink {
        void accept(byte[] bytes, int count) throws Exception;
    }

    private BoundedInflate() {}

    public static void inflate(long length, int chunkSize, String what, Source source, Sink sink) throws Exception {
        Inflater inflater = new Inflater(true);
        try {
            byte[] output = new byte[chunkSize];
            long consumed = 0;
            boolean padded = false;
            while (!inflater.finished()) {
                if (inflater.needsInput()) {
                    if (consumed < length) {
                        byte[] chunk = source.read(consumed, (int) Math.min(chunkSize, length - consumed));
                        consumed += chunk.length;
                        inflater.setInput(chunk);
                    } else if (!padded) {
                        // zlib in raw mode may ask for one byte past a stream that ends exactly at its length; a zero byte lets it say so.
                        padded = true;
                        inflater.setInput(new byte[1]);
                    } else {
                        throw new UnsafeArchive(what + " does not end within its " + length + " bytes");
                    }
                }
                int n;
                try {
                    n = inflater.inflate(output);
                } catch (DataFormatException e) {
                    throw new UnsafeArchive(what + " is not a valid deflate stream (" + e.getMessage() + ")");
                }
                if (n > 0) sink.accept(output, n);
                else if (inflater.needsDictionary()) throw new UnsafeArchive(what + " asks for a preset dictionary");
            }
            // Input the stream did not use, besides the padding byte, means it ended early: refused, as its bytes are not what was signed for it.
            long unused = inflater.getRemaining() - (padded ? 1 : 0);
            if (consumed < length || unused > 0) throw new UnsafeArchive(what + " ends before its " + length + " bytes");
        } finally {
            inflater.end();
        }
    }
}
