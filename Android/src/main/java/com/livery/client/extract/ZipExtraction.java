package com.livery.client.extract;

import com.livery.client.LiveryException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * Zip bundles, read whole or not at all: every record of the central directory in order, only stored and
 * deflate, no encryption, each entry's bytes bounded by its compressed size and checked against its size
 * and CRC-32. java.util.zip.ZipFile is not used: it would accept links as files and hide the Unix type.
 */
final class ZipExtraction {
    static final int CHUNK = 1 << 16;
    private static final int S_IFREG = 0100000, S_IFDIR = 0040000;

    private ZipExtraction() {}

    static void extract(Path archive, long size, ExtractionSink sink) throws LiveryException {
        String name = archive.getFileName().toString();
        try (FileChannel channel = FileChannel.open(archive, StandardOpenOption.READ)) {
            ZipCentralDirectory directory = new ZipCentralDirectory(channel, size, name, sink.limits().maxEntries);
            // Encryption and methods first, for every record: nothing is written from a zip that cannot be read whole.
            for (ZipCentralDirectory.Record r : directory.records) {
                if (r.isEncrypted()) throw new UnsafeArchive(name + ": an encrypted entry (bundles are never encrypted inside the zip)");
                if (r.method != 0 && r.method != 8) throw new UnsafeArchive(name + ": an entry compressed with method " + r.method + " (only stored and deflate are read)");
            }
            for (ZipCentralDirectory.Record r : directory.records) {
                sink.countEntry();
                String entryName = decodeName(r, name);
                String relative = EntryPath.normalise(entryName);
                int type = r.unixType();
                if (type > 0 && type != S_IFREG && type != S_IFDIR) throw EntryPath.notRegular(name, entryName);
                boolean folder = entryName.endsWith("/") || type == S_IFDIR || (type <= 0 && (r.externalAttributes & 0x10) != 0);
                if (folder) {
                    if (r.uncompressedSize != 0) throw new UnsafeArchive(name + ": folder entry '" + entryName + "' has data");
                    sink.makeFolders(relative);
                    continue;
                }
                try (OutputStream out = sink.createFile(relative)) {
                    copy(r, directory, out, entryName, name);
                } catch (ExtractionSink.BudgetExceeded e) {
                    throw new UnsafeArchive(e.getMessage());
                } catch (IOException e) {
                    throw new LiveryException(LiveryException.Kind.STORAGE, name + ": cannot write '" + relative + "': " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UnsafeArchive("cannot read " + name + ": " + e.getMessage());
        }
    }

    private static String decodeName(ZipCentralDirectory.Record r, String archive) throws UnsafeArchive {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(r.name));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new UnsafeArchive(archive + ": an entry name that is not UTF-8");
        }
    }

    /** One entry's data, inflated if deflated, into {@code out}; its length and CRC-32 must be those recorded. */
    private static void copy(ZipCentralDirectory.Record r, ZipCentralDirectory directory, OutputStream out, String entryName, String archive) throws IOException, LiveryException {
        long start = directory.dataOffset(r);
        CRC32 crc = new CRC32();
        long[] produced = {0};
        BoundedInflate.Sink take = (bytes, count) -> {
            produced[0] += count;
            if (produced[0] > r.uncompressedSize) throw new UnsafeArchive(archive + ": '" + entryName + "' is longer than the " + r.uncompressedSize + " bytes it declares");
            crc.update(bytes, 0, count);
            out.write(bytes, 0, count);
        };
        try {
            if (r.method == 0) {
                if (r.compressedSize != r.uncompressedSize) throw new UnsafeArchive(archive + ": stored entry '" + entryName + "' has two sizes");
                long consumed = 0;
                while (consumed < r.compressedSize) {
                    int count = (int) Math.min(CHUNK, r.compressedSize - consumed);
                    ByteBuffer data = directory.read(start + consumed, count);
                    consumed += count;
                    take.accept(data.array(), count);
                }
            } else {
                BoundedInflate.inflate(r.compressedSize, CHUNK, archive + ": the deflate data of '" + entryName + "'",
                        (offset, count) -> directory.read(start + offset, count).array(), take);
            }
        } catch (IOException | LiveryException e) {
            throw e;
        } catch (Exception e) {
            throw new UnsafeArchive(archive + ": '" + entryName + "': " + e.getMessage());
        }
        if (produced[0] != r.uncompressedSize) throw new UnsafeArchive(archive + ": '" + entryName + "' is " + produced[0] + " bytes, its entry declares " + r.uncompressedSize);
        if (crc.getValue() != r.crc32) throw new UnsafeArchive(archive + ": '" + entryName + "' does not match its CRC-32");
    }
}
