package com.livery.client.delta;

import com.livery.client.LiveryException;
import com.livery.client.digest.Sha256;
import com.livery.client.manifest.FileIndexReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** A whole file index: its table, checked against the manifest's reference, and every page, checked against the table. */
public final class FileIndex {
    public final FileIndexTable table;
    public final List<FileIndexPage> pages;
    /** The table's length, which is also where the first page starts in the object. */
    public final long tableSize;

    FileIndex(FileIndexTable table, List<FileIndexPage> pages, long tableSize) {
        this.table = table;
        this.pages = Collections.unmodifiableList(pages);
        this.tableSize = tableSize;
    }

    /** Reads a whole index object strictly: the table must have the reference's digest and length, each page its digest in the table. */
    public static FileIndex parse(byte[] object, FileIndexReference reference, String what) throws LiveryException {
        if (object.length < reference.size) throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + " is shorter than its table");
        byte[] tableBytes = Arrays.copyOf(object, reference.size);
        if (!Sha256.hex(tableBytes).equals(reference.sha256)) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + ": the table does not match its signed SHA-256");
        }
        FileIndexTable table = FileIndexTable.parse(tableBytes, what);
        long total = table.objectLength(reference.size);
        if (object.length != total) throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + " is " + object.length + " bytes, its table says " + total);
        List<FileIndexPage> pages = new ArrayList<>();
        for (int i = 0; i < table.pages.size(); i++) {
            int start = (int) table.pageStart(i, reference.size);
            byte[] bytes = Arrays.copyOfRange(object, start, start + (int) table.pages.get(i).length);
            pages.add(FileIndexPage.verified(bytes, table.pages.get(i), what + " page " + (i + 1)));
        }
        return new FileIndex(table, pages, reference.size);
    }

    /** Every file with its offset counted from the archive's first byte. */
    public List<FileIndexEntry> absoluteEntries() {
        List<FileIndexEntry> out = new ArrayList<>();
        for (int i = 0; i < pages.size(); i++) {
            long start = table.pages.get(i).start;
            for (FileIndexEntry e : pages.get(i).entries) out.add(e.absolute(start));
        }
        return out;
    }
}
