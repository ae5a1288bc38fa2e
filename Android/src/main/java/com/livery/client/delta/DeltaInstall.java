package com.livery.client.delta;

import com.livery.client.LiveryException;
import com.livery.client.digest.Hex;
import com.livery.client.digest.Sha256;
import com.livery.client.extract.BoundedInflate;
import com.livery.client.extract.EntryPath;
import com.livery.client.extract.ExtractionLimits;
import com.livery.client.extract.ExtractionSink;
import com.livery.client.extract.UnsafeArchive;
import com.livery.client.manifest.DownloadManifest;
import com.livery.client.manifest.FileIndexReference;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongConsumer;

/** Delta downloads of one bundle, step by step as docs/deltas.md "What a device does" orders them. */
public final class DeltaInstall {
    private static final int CHUNK = 1 << 16;

    private DeltaInstall() {}

    /** The index object of {@code bundle} on the server, beside its archive, named by its table's digest. */
    public static String indexPath(DownloadManifest.Bundle bundle, String prefix) {
        return "targets/" + prefix + bundle.files.sha256 + "." + bundle.id + ".files";
    }

    /**
     * Steps 1 to 4: fetches the table and the pages {@code base} lacks, verifies them (the table against the signed
     * manifest, each page against the table, the table's archive against the signed target), checks every path, and
     * works out which files to fetch. {@code scratch} is a folder for downloaded parts.
     */
    public static PreparedDelta prepare(DownloadManifest.Bundle bundle, String signedSha256, long signedLength, String prefix,
                                        RangeSource source, DeltaBase base, Path scratch) throws Exception {
        FileIndexReference reference = bundle.files;
        if (reference == null) throw new LiveryException(LiveryException.Kind.MALFORMED, "bundle '" + bundle.id + "' has no file index");
        String path = indexPath(bundle, prefix);
        String what = "the file index of " + bundle.id;
        byte[] tableBytes = fetchTable(reference, source, path, what, scratch);
        FileIndexTable table = FileIndexTable.parse(tableBytes, what);
        if (!table.bundle.equals(bundle.id) || !table.archiveSha256.equals(signedSha256) || table.archiveSize != signedLength) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + " describes another archive than the signed one");
        }
        List<Span.Wanted<Integer>> missing = new ArrayList<>();
        for (int i = 0; i < table.pages.size(); i++) {
            if (base.pages.containsKey(table.pages.get(i).sha256)) continue;
            long start = table.pageStart(i, reference.size);
            missing.add(new Span.Wanted<>(start, start + table.pages.get(i).length, i));
        }
        Map<Integer, byte[]> fetched = new HashMap<>();
        long received = tableBytes.length;
        // Adjacent pages in one request.
        for (Span<Integer> span : Span.coalesce(missing, 0)) {
            byte[] data = fetch(source, path, span.start, span.end, scratch);
            received += data.length;
            for (int i : span.items) {
                int from = (int) (table.pageStart(i, reference.size) - span.start);
                byte[] page = new byte[(int) table.pages.get(i).length];
                System.arraycopy(data, from, page, 0, page.length);
                fetched.put(i, page);
            }
        }
        java.io.ByteArrayOutputStream object = new java.io.ByteArrayOutputStream();
        object.write(tableBytes);
        List<FileIndexPage> pages = new ArrayList<>();
        for (int i = 0; i < table.pages.size(); i++) {
            byte[] bytes = fetched.containsKey(i) ? fetched.get(i) : base.pages.get(table.pages.get(i).sha256);
            if (bytes == null) throw new LiveryException(LiveryException.Kind.MALFORMED, what + ": page " + (i + 1) + " is missing");
            pages.add(FileIndexPage.verified(bytes, table.pages.get(i), what + " page " + (i + 1)));
            object.write(bytes);
        }
        FileIndex index = new FileIndex(table, pages, reference.size);
        // Every path safe and given once, every file's data inside the archive.
        Set<String> seen = new HashSet<>();
        List<Span.Wanted<FileIndexEntry>> wanted = new ArrayList<>();
        for (FileIndexEntry e : index.absoluteEntries()) {
            String relative = EntryPath.normalise(e.path);
            if (!seen.add(relative)) throw new UnsafeArchive(what + " lists '" + e.path + "' twice");
            if (e.offset + e.length > table.archiveSize) throw new UnsafeArchive(what + ": '" + e.path + "' lies outside the archive");
            if (!base.files.containsKey(e.sha256)) wanted.add(new Span.Wanted<>(e.offset, e.offset + e.length, e));
        }
        return new PreparedDelta(bundle.id, index, object.toByteArray(), Span.coalesce(wanted, Span.GAP), received);
    }

    /** The index's table as the manifest signs it (its SHA-256 and length). */
    private static byte[] fetchTable(FileIndexReference reference, RangeSource source, String path, String what, Path scratch) throws Exception {
        byte[] tableBytes = fetch(source, path, 0, reference.size, scratch);
        if (!Sha256.hex(tableBytes).equals(reference.sha256)) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + ": the table does not match its signed SHA-256");
        }
        return tableBytes;
    }

    /** The whole index object of a bundle downloaded whole, verified, for the next delta (the table, then its pages). */
    public static byte[] fetchIndex(DownloadManifest.Bundle bundle, String signedSha256, String prefix, RangeSource source, Path scratch) throws Exception {
        FileIndexReference reference = bundle.files;
        String path = indexPath(bundle, prefix);
        String what = "the file index of " + bundle.id;
        byte[] tableBytes = fetchTable(reference, source, path, what, scratch);
        FileIndexTable table = FileIndexTable.parse(tableBytes, what);
        if (!table.archiveSha256.equals(signedSha256)) throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + " describes another archive than the signed one");
        long total = table.objectLength(reference.size);
        byte[] object = tableBytes;
        if (total > reference.size) {
            byte[] rest = fetch(source, path, reference.size, total, scratch);
            object = new byte[(int) total];
            System.arraycopy(tableBytes, 0, object, 0, tableBytes.length);
            System.arraycopy(rest, 0, object, tableBytes.length, rest.length);
        }
        FileIndex.parse(object, reference, what);
        return object;
    }

    /**
     * Steps 5 and 6's checks: installs the bundle of {@code delta} into the new folder {@code folder}. Each file the
     * base has is checked against its digest (a wrong base is refused) and hard-linked, copied where links fail; each
     * other file comes from its range of the new archive, inflated if deflated, and is checked against its digest and
     * size. Any mismatch throws; the caller discards the folder and downloads the archive whole.
     */
    public static void install(PreparedDelta delta, String archivePath, RangeSource source, DeltaBase base, Path folder, Path scratch,
                               LongConsumer progress) throws Exception {
        Files.createDirectories(folder);
        long budget = 0;
        for (FileIndexEntry e : delta.index.absoluteEntries()) budget += e.size;
        ExtractionSink sink = new ExtractionSink(delta.id, folder, ExtractionLimits.standard(), budget);
        Set<String> fetched = new HashSet<>();
        long received = 0;
        for (Span<FileIndexEntry> span : delta.spans) {
            Path part = scratch.resolve("range-" + UUID.randomUUID());
            try {
                source.copyRange(archivePath, span.start, span.end, part);
                if (Files.size(part) != span.length()) throw new LiveryException(LiveryException.Kind.DOWNLOAD, delta.id + ": the downloaded range has the wrong length");
                received += span.length();
                if (progress != null) progress.accept(received);
                try (FileChannel channel = FileChannel.open(part, StandardOpenOption.READ)) {
                    for (FileIndexEntry entry : span.items) {
                        String relative = EntryPath.normalise(entry.path);
                        sink.countEntry();
                        try (OutputStream out = sink.createFile(relative)) {
                            decode(entry, channel, entry.offset - span.start, out, delta.id);
                        }
                        fetched.add(relative);
                    }
                }
            } finally {
                Files.deleteIfExists(part);
            }
        }
        for (FileIndexEntry entry : delta.index.absoluteEntries()) {
            String relative = EntryPath.normalise(entry.path);
            if (fetched.contains(relative)) continue;
            Path from = base.files.get(entry.sha256);
            if (from == null) throw new LiveryException(LiveryException.Kind.MALFORMED, delta.id + ": no file with the digest of '" + entry.path + "' on the device");
            sink.countEntry();
            // The base is checked before it is used: a file changed on the device (a wrong base) is refused.
            Sha256.verifyFile(from, entry.size, entry.sha256, delta.id + "/" + entry.path + " on the device");
            int slash = relative.lastIndexOf('/');
            sink.makeFolders(slash < 0 ? "" : relative.substring(0, slash));
            Path to = folder.resolve(relative);
            try {
                Files.createLink(to, from);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(from, to);
            }
        }
    }

    /** One file from a downloaded range (stored bytes as they are, deflated bytes inflated), checked against its index entry. */
    private static void decode(FileIndexEntry entry, FileChannel channel, long start, OutputStream out, String bundle) throws Exception {
        MessageDigest digest = Sha256.digest();
        long[] produced = {0};
        BoundedInflate.Sink take = (bytes, count) -> {
            produced[0] += count;
            if (produced[0] > entry.size) throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, bundle + ": '" + entry.path + "' is longer than the " + entry.size + " bytes of its index entry");
            digest.update(bytes, 0, count);
            out.write(bytes, 0, count);
        };
        BoundedInflate.Source read = (offset, count) -> {
            ByteBuffer buffer = ByteBuffer.allocate(count);
            try {
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, start + offset + buffer.position()) <= 0) throw new UnsafeArchive(bundle + ": the downloaded range ends early");
                }
            } catch (IOException e) {
                throw new UnsafeArchive(bundle + ": cannot read the downloaded range: " + e.getMessage());
            }
            return buffer.array();
        };
        if (entry.deflated) {
            BoundedInflate.inflate(entry.length, CHUNK, bundle + ": the deflate data of '" + entry.path + "'", read, take);
        } else {
            long consumed = 0;
            while (consumed < entry.length) {
                int count = (int) Math.min(CHUNK, entry.length - consumed);
                take.accept(read.read(consumed, count), count);
                consumed += count;
            }
        }
        if (produced[0] != entry.size || !Hex.encode(digest.digest()).equals(entry.sha256)) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, bundle + ": '" + entry.path + "' does not match its SHA-256 in the signed file index");
        }
    }

    /** Bytes {@code [start, end)} of {@code path}, in memory (tables and pages: small, bounded by their signed sizes). */
    private static byte[] fetch(RangeSource source, String path, long start, long end, Path scratch) throws Exception {
        Path part = scratch.resolve("index-" + UUID.randomUUID());
        try {
            source.copyRange(path, start, end, part);
            byte[] data = Files.readAllBytes(part);
            if (data.length != end - start) throw new LiveryException(LiveryException.Kind.DOWNLOAD, path + ": expected " + (end - start) + " bytes, got " + data.length);
            return data;
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
