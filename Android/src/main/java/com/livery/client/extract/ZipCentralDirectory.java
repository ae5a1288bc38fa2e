package com.livery.client.extract;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A zip's end record and central directory, read from an open file: the entries in order with their
 * flags, method, CRC-32, sizes, local header offset, Unix file type and raw name. Nothing here decompresses.
 */
public final class ZipCentralDirectory {
    /** One central directory record. */
    public static final class Record {
        public int flags, method, versionMadeBy;
        public long crc32, compressedSize, uncompressedSize, localHeaderOffset, externalAttributes;
        public byte[] name;

        public boolean isEncrypted() { return (flags & 1) != 0; }

        /** The S_IFMT bits when the entry was made on a Unix-like host (3: Unix, 19: macOS), else -1. */
        public int unixType() {
            int host = versionMadeBy >> 8;
            return host == 3 || host == 19 ? (int) (externalAttributes >>> 16) & 0170000 : -1;
        }
    }

    static final long MAX_DIRECTORY_SIZE = 64L << 20;
    public final List<Record> records = new ArrayList<>();
    public final long fileSize;
    private final FileChannel channel;
    private final String name;

    public ZipCentralDirectory(FileChannel channel, long fileSize, String name, int maxEntries) throws UnsafeArchive {
        this.channel = channel;
        this.fileSize = fileSize;
        this.name = name;
        // The end record is in the last 22 + 65,535 bytes; the one nearest the end wins.
        int tailLength = (int) Math.min(fileSize, 22 + 0xFFFF);
        ByteBuffer tail = read(fileSize - tailLength, tailLength);
        int end = -1;
        for (int at = tailLength - 22; at >= 0; at--) {
            if (tail.getInt(at) == 0x06054B50) {
                end = at;
                break;
            }
        }
        if (end < 0) throw new UnsafeArchive(name + ": no zip end record (a truncated archive?)");
        long count = u16(tail, end + 10), directorySize = u32(tail, end + 12), directoryOffset = u32(tail, end + 16);
        if (count == 0xFFFF || directorySize == 0xFFFFFFFFL || directoryOffset == 0xFFFFFFFFL) {
            long endOffset = fileSize - tailLength + end;
            if (endOffset < 20) throw new UnsafeArchive(name + ": damaged zip64 end record");
            ByteBuffer locator = read(endOffset - 20, 20);
            if (locator.getInt(0) != 0x07064B50) throw new UnsafeArchive(name + ": damaged zip64 end record");
            ByteBuffer record = read(locator.getLong(8), 56);
            if (record.getInt(0) != 0x06064B50) throw new UnsafeArchive(name + ": damaged zip64 end record");
            count = record.getLong(32);
            directorySize = record.getLong(40);
            directoryOffset = record.getLong(48);
        }
        // The entry cap before anything is read: a claim of a million entries is refused from the end record alone.
        if (count < 0 || count > maxEntries) throw new UnsafeArchive(name + " has more than " + maxEntries + " entries");
        if (directoryOffset < 0 || directoryOffset > fileSize || directorySize < 0 || directorySize > fileSize - directoryOffset || directorySize < count * 46) {
            throw new UnsafeArchive(name + ": the central directory lies outside the archive");
        }
        if (directorySize > MAX_DIRECTORY_SIZE) throw new UnsafeArchive(name + ": a central directory of " + directorySize + " bytes (at most " + MAX_DIRECTORY_SIZE + ")");
        ByteBuffer directory = read(directoryOffset, (int) directorySize);
        int at = 0;
        for (int index = 0; index < count; index++) {
            if (at + 46 > directory.limit() || directory.getInt(at) != 0x02014B50) throw new UnsafeArchive(name + ": damaged central directory record " + (index + 1));
            int nameLength = u16(directory, at + 28), extraLength = u16(directory, at + 30), commentLength = u16(directory, at + 32);
            int next = at + 46 + nameLength + extraLength + commentLength;
            if (next > directory.limit()) throw new UnsafeArchive(name + ": damaged central directory record " + (index + 1));
            Record r = new Record();
            r.versionMadeBy = u16(directory, at + 4);
            r.flags = u16(directory, at + 8);
            r.method = u16(directory, at + 10);
            r.crc32 = u32(directory, at + 16);
            r.compressedSize = u32(directory, at + 20);
            r.uncompressedSize = u32(directory, at + 24);
            r.externalAttributes = u32(directory, at + 38);
            r.localHeaderOffset = u32(directory, at + 42);
            r.name = new byte[nameLength];
            directory.get(at + 46, r.name);
            applyZip64(directory, at + 46 + nameLength, extraLength, r);
            records.add(r);
            at = next;
        }
    }

    /** The zip64 extra field (id 1) holds, in order, each size and the offset whose 32-bit field is all ones. */
    private void applyZip64(ByteBuffer d, int start, int length, Record r) throws UnsafeArchive {
        if (r.uncompressedSize != 0xFFFFFFFFL && r.compressedSize != 0xFFFFFFFFL && r.localHeaderOffset != 0xFFFFFFFFL) return;
        int at = start, end = start + length;
        while (at + 4 <= end) {
            int id = u16(d, at), size = u16(d, at + 2);
            if (at + 4 + size > end) break;
            if (id == 1) {
                int field = at + 4, limit = at + 4 + size;
                if (r.uncompressedSize == 0xFFFFFFFFL) { if (field + 8 > limit) throw damaged(); r.uncompressedSize = d.getLong(field); field += 8; }
                if (r.compressedSize == 0xFFFFFFFFL) { if (field + 8 > limit) throw damaged(); r.compressedSize = d.getLong(field); field += 8; }
                if (r.localHeaderOffset == 0xFFFFFFFFL) { if (field + 8 > limit) throw damaged(); r.localHeaderOffset = d.getLong(field); }
                if (r.uncompressedSize < 0 || r.compressedSize < 0 || r.localHeaderOffset < 0) throw damaged();
                return;
            }
            at += 4 + size;
        }
        throw new UnsafeArchive(name + ": a zip64 entry without its zip64 extra field");
    }

    private UnsafeArchive damaged() {
        return new UnsafeArchive(name + ": damaged zip64 extra field");
    }

    /** Where {@code record}'s data starts, from its local header; the data must lie inside the archive. */
    public long dataOffset(Record record) throws UnsafeArchive {
        if (record.localHeaderOffset > fileSize || fileSize - record.localHeaderOffset < 30) throw new UnsafeArchive(name + ": a local header lies outside the archive");
        ByteBuffer header = read(record.localHeaderOffset, 30);
        if (header.getInt(0) != 0x04034B50) throw new UnsafeArchive(name + ": damaged local header");
        long start = record.localHeaderOffset + 30 + u16(header, 26) + u16(header, 28);
        if (start > fileSize || record.compressedSize > fileSize - start) throw new UnsafeArchive(name + ": an entry's data runs past the end of the archive");
        return start;
    }

    /** Exactly {@code count} bytes at {@code offset}, little-endian, or an error. */
    public ByteBuffer read(long offset, int count) throws UnsafeArchive {
        ByteBuffer buffer = ByteBuffer.allocate(count).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, offset + buffer.position());
                if (n <= 0) throw new UnsafeArchive(name + ": cannot read " + count + " bytes at offset " + offset + " (a truncated archive?)");
            }
        } catch (IOException e) {
            throw new UnsafeArchive(name + ": cannot read " + count + " bytes at offset " + offset + ": " + e.getMessage());
        }
        buffer.flip();
        return buffer;
    }

    private static int u16(ByteBuffer b, int at) { return b.getShort(at) & 0xFFFF; }
    private static long u32(ByteBuffer b, int at) { return b.getInt(at) & 0xFFFFFFFFL; }
}
