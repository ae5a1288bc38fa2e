package com.livery.client.delta;

import com.livery.client.LiveryException;
import com.livery.client.digest.Sha256;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A page of a file index: a run of consecutive files with where their data lies, relative to the page's start. */
public final class FileIndexPage {
    public final List<FileIndexEntry> entries;

    private FileIndexPage(List<FileIndexEntry> entries) {
        this.entries = entries;
    }

    /** A page's bytes checked against the table's digest, length and count, then read strictly. */
    public static FileIndexPage verified(byte[] bytes, FileIndexTable.Page described, String what) throws LiveryException {
        if (bytes.length != described.length || !Sha256.hex(bytes).equals(described.sha256)) {
            throw new LiveryException(LiveryException.Kind.LENGTH_OR_HASH_MISMATCH, what + " does not match its SHA-256 in the table");
        }
        FileIndexPage page;
        try {
            page = parse(bytes, what);
        } catch (JsonException e) {
            throw LiveryException.malformed(e);
        }
        if (page.entries.size() != described.count) {
            throw new LiveryException(LiveryException.Kind.MALFORMED, what + " lists " + page.entries.size() + " files, the table says " + described.count);
        }
        return page;
    }

    static FileIndexPage parse(byte[] data, String what) throws JsonException {
        JsonObject o = JsonObject.parse(data, what);
        o.onlyKeys("entries");
        List<?> items = o.list("entries");
        List<FileIndexEntry> entries = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String bad = what + ": entry " + (i + 1) + " must be [path, sha256, size, offset, length, method]";
            if (!(items.get(i) instanceof List)) throw new JsonException(bad);
            List<?> f = (List<?>) items.get(i);
            if (f.size() != 6 || !(f.get(0) instanceof String) || !(f.get(1) instanceof String) || !(f.get(2) instanceof Long)
                    || !(f.get(3) instanceof Long) || !(f.get(4) instanceof Long) || !(f.get(5) instanceof String)) {
                throw new JsonException(bad);
            }
            String sha = (String) f.get(1), method = (String) f.get(5);
            long size = (Long) f.get(2), offset = (Long) f.get(3), length = (Long) f.get(4);
            if (!Sha256.isDigest(sha)) throw new JsonException(what + ": entry " + (i + 1) + " has a malformed sha256");
            if (size < 0 || offset < 0 || length < 0) throw new JsonException(what + ": entry " + (i + 1) + " has a negative number");
            // Bounded so that no offset arithmetic can overflow.
            if (size > FileIndexTable.MAX_BYTES || offset > FileIndexTable.MAX_BYTES || length > FileIndexTable.MAX_BYTES) {
                throw new JsonException(what + ": entry " + (i + 1) + " has a number above " + FileIndexTable.MAX_BYTES);
            }
            if (!method.equals("stored") && !method.equals("deflate")) throw new JsonException(what + ": entry " + (i + 1) + " has the unknown method \"" + method + "\"");
            if (method.equals("stored") && length != size) throw new JsonException(what + ": stored entry " + (i + 1) + " has two sizes");
            entries.add(new FileIndexEntry((String) f.get(0), sha, size, offset, length, method.equals("deflate")));
        }
        return new FileIndexPage(Collections.unmodifiableList(entries));
    }
}
