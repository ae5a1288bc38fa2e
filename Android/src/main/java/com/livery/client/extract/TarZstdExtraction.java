package com.livery.client.extract;

import com.github.luben.zstd.ZstdInputStream;
import com.livery.client.LiveryException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * tar.zst bundles: zstd-jni decompresses, and a small ustar/pax reader walks the entries, each handed to
 * the same {@link ExtractionSink} as a zip's. Only regular files and folders (types '0', NUL and '5');
 * pax headers ('x') and GNU long names ('L') give long paths; every other type (links, devices, FIFOs, GNU
 * long link names, sparse files) is refused.
 */
final class TarZstdExtraction {
    private static final int BLOCK = 512;
    /** A pax header is read into memory: bounded, as a hostile archive could claim any size. */
    private static final int MAX_PAX = 1 << 20;

    private TarZstdExtraction() {}

    static void extract(Path archive, ExtractionSink sink) throws LiveryException {
        String name = archive.getFileName().toString();
        try (InputStream in = new BufferedInputStream(new ZstdInputStream(Files.newInputStream(archive)), 1 << 16)) {
            byte[] header = new byte[BLOCK];
            String paxPath = null;
            while (true) {
                if (!readFully(in, header)) throw new UnsafeArchive(name + ": the archive ends without its end blocks");
                if (isZero(header)) return;
                checkChecksum(header, name);
                char type = (char) header[156];
                long size = octal(header, 124, 12, name);
                String entryName = paxPath != null ? paxPath : headerName(header);
                paxPath = null;
                if (type == 'x') {
                    if (size > MAX_PAX) throw new UnsafeArchive(name + ": a pax header of " + size + " bytes");
                    byte[] pax = new byte[(int) size];
                    if (!readFully(in, pax)) throw truncated(name);
                    skip(in, pad(size), name);
                    paxPath = paxValue(pax, "path", name);
                    continue;
                }
                if (type == 'g') {
                    skip(in, size + pad(size), name);
                    continue;
                }
                if (type == 'L') {
                    // GNU tar's long name: the next entry's path, as libarchive reads it.
                    if (size > MAX_PAX) throw new UnsafeArchive(name + ": a GNU long name of " + size + " bytes");
                    byte[] longName = new byte[(int) size];
                    if (!readFully(in, longName)) throw truncated(name);
                    skip(in, pad(size), name);
                    int end = 0;
                    while (end < longName.length && longName[end] != 0) end++;
                    paxPath = new String(longName, 0, end, StandardCharsets.UTF_8);
                    continue;
                }
                if (type == 'K') throw new UnsafeArchive(name + ": a GNU long link name (links are refused)");
                sink.countEntry();
                String relative = EntryPath.normalise(entryName);
                if (type == '5') {
                    sink.makeFolders(relative);
                    skip(in, size + pad(size), name);
                    continue;
                }
                if (type != '0' && type != '\0') throw EntryPath.notRegular(name, entryName);
                try (OutputStream out = sink.createFile(relative)) {
                    byte[] buffer = new byte[1 << 16];
                    long left = size;
                    while (left > 0) {
                        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                        if (n < 0) throw truncated(name);
                        out.write(buffer, 0, n);
                        left -= n;
                    }
                } catch (ExtractionSink.BudgetExceeded e) {
                    throw new UnsafeArchive(e.getMessage());
                } catch (ExtractionSink.WriteFailed e) {
                    throw new LiveryException(LiveryException.Kind.STORAGE, name + ": cannot write '" + relative + "': " + e.getMessage(), e.getCause());
                }
                skip(in, pad(size), name);
            }
        } catch (IOException e) {
            throw new UnsafeArchive(name + ": corrupt archive: " + e.getMessage());
        }
    }

    private static UnsafeArchive truncated(String name) {
        return new UnsafeArchive(name + ": the archive ends inside an entry");
    }

    private static long pad(long size) {
        return (BLOCK - size % BLOCK) % BLOCK;
    }

    private static boolean readFully(InputStream in, byte[] into) throws IOException {
        int done = 0;
        while (done < into.length) {
            int n = in.read(into, done, into.length - done);
            if (n < 0) return false;
            done += n;
        }
        return true;
    }

    private static void skip(InputStream in, long count, String name) throws IOException, UnsafeArchive {
        byte[] scratch = new byte[8192];
        while (count > 0) {
            int n = in.read(scratch, 0, (int) Math.min(scratch.length, count));
            if (n < 0) throw truncated(name);
            count -= n;
        }
    }

    private static boolean isZero(byte[] block) {
        for (byte b : block) if (b != 0) return false;
        return true;
    }

    private static String headerName(byte[] h) {
        String name = field(h, 0, 100);
        // ustar: a prefix (345, 155 bytes) goes before the name with a slash.
        if (new String(h, 257, 5, StandardCharsets.US_ASCII).equals("ustar")) {
            String prefix = field(h, 345, 155);
            if (!prefix.isEmpty()) name = prefix + "/" + name;
        }
        return name;
    }

    private static String field(byte[] h, int start, int length) {
        int end = start;
        while (end < start + length && h[end] != 0) end++;
        return new String(h, start, end - start, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] h, int start, int length, String name) throws UnsafeArchive {
        if ((h[start] & 0x80) != 0) throw new UnsafeArchive(name + ": a base-256 size field (a file far larger than any bundle)");
        long value = 0;
        for (int i = start; i < start + length; i++) {
            byte b = h[i];
            if (b == 0 || b == ' ') {
                if (value > 0 || i > start) continue;
                continue;
            }
            if (b < '0' || b > '7') throw new UnsafeArchive(name + ": a damaged tar header");
            value = value * 8 + (b - '0');
            if (value > (1L << 40)) throw new UnsafeArchive(name + ": a tar entry larger than 1 TiB");
        }
        return value;
    }

    private static void checkChecksum(byte[] h, String name) throws UnsafeArchive {
        long stored = octal(h, 148, 8, name);
        long sum = 0;
        for (int i = 0; i < BLOCK; i++) sum += (i >= 148 && i < 156) ? ' ' : (h[i] & 0xFF);
        if (sum != stored) throw new UnsafeArchive(name + ": a tar header whose checksum does not match");
    }

    /** The value of {@code key} in pax records ("LEN key=value\n"), or null. */
    private static String paxValue(byte[] pax, String key, String name) throws UnsafeArchive {
        int at = 0;
        String found = null;
        while (at < pax.length) {
            int space = at;
            while (space < pax.length && pax[space] != ' ') space++;
            int length;
            try {
                length = Integer.parseInt(new String(pax, at, space - at, StandardCharsets.US_ASCII));
            } catch (NumberFormatException e) {
                throw new UnsafeArchive(name + ": a damaged pax header");
            }
            if (length <= space - at || at + length > pax.length) throw new UnsafeArchive(name + ": a damaged pax header");
            String record = new String(pax, space + 1, at + length - space - 2, StandardCharsets.UTF_8);
            int equals = record.indexOf('=');
            if (equals > 0 && record.substring(0, equals).equals(key)) found = record.substring(equals + 1);
            if (equals > 0 && record.substring(0, equals).equals("linkpath")) throw new UnsafeArchive(name + ": a pax link path (links are refused)");
            at += length;
        }
        return found;
    }
}
