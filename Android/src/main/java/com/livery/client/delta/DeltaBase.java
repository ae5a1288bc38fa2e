package com.livery.client.delta;

import com.livery.client.manifest.DownloadManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What the installed release holds that a delta can start from: the file indexes of its bundles (kept in
 * {@code index/<bundle id>.files}, verified when they were installed), each page by its digest, and each file by its
 * content digest.
 */
public final class DeltaBase {
    public final Map<String, byte[]> pages = new HashMap<>();
    public final Map<String, Path> files = new HashMap<>();

    /** Reads the indexes of every bundle of {@code release} that has one; a damaged one is skipped (its bundle then comes whole). */
    public DeltaBase(Path release, DownloadManifest manifest) {
        if (release == null || manifest == null) return;
        for (DownloadManifest.Bundle bundle : manifest.bundles) {
            if (bundle.files == null) continue;
            Path folder = release.resolve("bundles").resolve(bundle.id);
            try {
                byte[] object = Files.readAllBytes(indexFile(release, bundle.id));
                FileIndex index = FileIndex.parse(object, bundle.files, "the installed index of " + bundle.id);
                if (!Files.isDirectory(folder)) continue;
                for (int i = 0; i < index.pages.size(); i++) {
                    int start = (int) index.table.pageStart(i, index.tableSize);
                    pages.put(index.table.pages.get(i).sha256, Arrays.copyOfRange(object, start, start + (int) index.table.pages.get(i).length));
                    for (FileIndexEntry e : index.pages.get(i).entries) files.putIfAbsent(e.sha256, folder.resolve(e.path));
                }
            } catch (Exception e) {
                // Skipped: this bundle's files are simply not offered as a base.
            }
        }
    }

    public boolean isEmpty() { return pages.isEmpty(); }

    public static Path indexFile(Path release, String bundle) {
        return release.resolve("index").resolve(bundle + ".files");
    }
}
