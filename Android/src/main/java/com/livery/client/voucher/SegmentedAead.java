package com.livery.client.voucher;

import com.livery.client.LiveryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * The ciphertext of an encrypted bundle: a 12-byte header ("LVRYENC" 0x01, the segment size as u32 big-endian), then
 * segments sealed with AES-256-GCM, nonce = 4 zero bytes ‖ index (u64 BE), additional data = header ‖ final flag.
 * Reordered, dropped, repeated or cut segments and bytes after the last fail; memory is one segment.
 */
public final class SegmentedAead {
    static final byte[] MAGIC = "LVRYENC\u0001".getBytes(StandardCharsets.ISO_8859_1);
    static final int TAG = 16, HEADER = 12;
    static final int MIN_SEGMENT = 1024, MAX_SEGMENT = 16 << 20;

    private SegmentedAead() {}

    /** Decrypts {@code source} into {@code destination} (created); throws on a wrong key or any change to the ciphertext. */
    public static void decrypt(Path source, Path destination, byte[] key) throws LiveryException, IOException {
        try (InputStream in = Files.newInputStream(source); OutputStream out = Files.newOutputStream(destination)) {
            byte[] header = in.readNBytes(HEADER);
            int segment = segmentSize(header);
            int chunk = segment + TAG;
            long index = 0;
            byte[] current = in.readNBytes(chunk);
            while (true) {
                byte[] next = current.length == chunk ? in.readNBytes(chunk) : new byte[0];
                boolean last = next.length == 0;
                out.write(openSegment(current, index, last, header, key));
                if (last) return;
                current = next;
                index++;
            }
        }
    }

    /** Encrypts bytes in memory (tests make ciphertext the client must open). */
    public static byte[] encrypt(byte[] plaintext, byte[] key, int segmentSize) throws GeneralSecurityException {
        byte[] header = Arrays.copyOf(MAGIC, HEADER);
        ByteBuffer.wrap(header).putInt(8, segmentSize);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(header);
        int start = 0;
        long index = 0;
        do {
            int end = Math.min(start + segmentSize, plaintext.length);
            boolean last = end == plaintext.length;
            out.writeBytes(ContentCrypto.seal(key, nonce(index), Arrays.copyOfRange(plaintext, start, end), aad(header, last)));
            start = end;
            index++;
        } while (start < plaintext.length);
        return out.toByteArray();
    }

    static int segmentSize(byte[] header) throws LiveryException {
        if (header.length != HEADER || !Arrays.equals(Arrays.copyOf(header, 8), MAGIC)) {
            throw new LiveryException(LiveryException.Kind.MALFORMED, "not an encrypted Livery bundle (its header is not \"LVRYENC\" version 1)");
        }
        int size = ByteBuffer.wrap(header).getInt(8);
        if (size < MIN_SEGMENT || size > MAX_SEGMENT) throw new LiveryException(LiveryException.Kind.MALFORMED, "an encrypted bundle's segment size " + size + " is outside 1024...16777216");
        return size;
    }

    private static byte[] openSegment(byte[] chunk, long index, boolean last, byte[] header, byte[] key) throws LiveryException {
        if (chunk.length < TAG) throw new LiveryException(LiveryException.Kind.MALFORMED, "encrypted bundle: segment " + index + " is cut short");
        try {
            return ContentCrypto.open(key, nonce(index), chunk, aad(header, last));
        } catch (GeneralSecurityException e) {
            throw new LiveryException(LiveryException.Kind.MALFORMED,
                    "encrypted bundle: segment " + index + " does not open with this key (wrong key, or the bytes were changed, reordered or cut)");
        }
    }

    private static byte[] nonce(long index) {
        return ByteBuffer.allocate(12).putInt(0).putLong(index).array();
    }

    private static byte[] aad(byte[] header, boolean last) {
        byte[] aad = Arrays.copyOf(header, HEADER + 1);
        aad[HEADER] = (byte) (last ? 1 : 0);
        return aad;
    }
}
