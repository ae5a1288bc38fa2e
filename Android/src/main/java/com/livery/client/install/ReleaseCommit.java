package com.livery.client.install;

import com.livery.client.files.FileErrors;
import com.livery.client.LiveryException;
import com.livery.client.manifest.DownloadManifest;
import com.livery.client.manifest.Selection;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The install's one visible change, as a transaction (docs/client.md, "Installing: one rename"): everything that takes
 * room on disk is written first (the release tree, the new {@code current} link, the remembered selection); then only
 * renames follow, and if one fails, those already done are undone, latest first. Also the durability flushes and the
 * garbage collection after the switch.
 */
public final class ReleaseCommit {
    private ReleaseCommit() {}

    /** Renames {@code staging} to {@code releases/<releaseName>} and points {@code current} at it. */
    public static void commit(Path staging, String releaseName, long release, Path cache, Selection selection) throws LiveryException {
        Path releases = cache.resolve("releases");
        Path target = releases.resolve(releaseName);
        Path link = cache.resolve(".current." + UUID.randomUUID());
        Path stagedSelection = cache.resolve(".selection." + UUID.randomUUID());
        Path aside = releases.resolve(".replaced-" + UUID.randomUUID());
        Path current = cache.resolve("current");
        Deque<Runnable> undo = new ArrayDeque<>();
        try {
            Files.createSymbolicLink(link, Path.of("releases", releaseName));
            boolean selectionChanges = !Selection.load(cache).equals(selection);
            if (selectionChanges) selection.write(stagedSelection);
            try {
                if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                    step("replace release " + release, target, aside);
                    undo.push(() -> quietMove(aside, target));
                }
                step("install release " + release, staging, target);
                undo.push(() -> quietMove(target, staging));
                syncFolder(releases);
                Path previous = Files.isSymbolicLink(current) ? Files.readSymbolicLink(current) : null;
                step("switch to release " + release, link, current);
                undo.push(() -> {
                    try {
                        if (previous != null) {
                            Files.createSymbolicLink(link, previous);
                            Files.move(link, current, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                        } else {
                            Files.deleteIfExists(current);
                        }
                    } catch (IOException ignored) {
                        // Undo is best effort: the rename that failed is the error reported.
                    }
                });
                if (selectionChanges) step("save the selection", stagedSelection, Selection.file(cache));
                syncFolder(cache);
            } catch (LiveryException | IOException e) {
                while (!undo.isEmpty()) undo.pop().run();
                throw e;
            }
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot install release " + release + ": " + e.getMessage() + ": the fetch changed nothing", e);
        } finally {
            for (Path leftover : List.of(link, stagedSelection)) quietDelete(leftover);
            removeTree(aside);
        }
    }

    private static void step(String what, Path from, Path to) throws LiveryException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot " + what + " (" + e.getMessage() + "): the fetch changed nothing", e);
        }
    }

    private static void quietMove(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // Best effort, as above.
        }
    }

    private static void quietDelete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // A leftover temporary name: harmless, removed by nothing but costs nothing.
        }
    }

    /** Writes {@code data} to the new or replaced {@code file}; a failure names the file (Java's write errors do not). */
    public static void write(Path file, byte[] data) throws IOException {
        try {
            Files.write(file, data);
        } catch (IOException e) {
            throw FileErrors.naming(file, e);
        }
    }

    /** Flushes a file's data or a folder's entries to disk; a platform that cannot open a folder for it (some Android versions) skips folders. */
    public static void sync(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    static void syncFolder(Path folder) {
        try {
            sync(folder);
        } catch (IOException ignored) {
            // Folders cannot be opened for fsync everywhere; the files themselves were flushed.
        }
    }

    /** Every installed file and folder on disk before anything points at them. */
    public static void syncTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) sync(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                syncFolder(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Keeps the releases named in {@code keep}, deletes older ones, and the downloads no kept release has installed ({@code .part} files stay). */
    public static void collectGarbage(Path cache, Set<String> keep) {
        Path releases = cache.resolve("releases");
        Set<String> referenced = new HashSet<>();
        try (Stream<Path> names = Files.list(releases)) {
            for (Path folder : (Iterable<Path>) names::iterator) {
                String name = folder.getFileName().toString();
                if (!keep.contains(name)) {
                    removeTree(folder);
                    continue;
                }
                try {
                    DownloadManifest manifest = DownloadManifest.parse(Files.readAllBytes(folder.resolve(DownloadManifest.TARGET_NAME)));
                    for (DownloadManifest.Bundle b : manifest.bundles) if (Files.exists(folder.resolve("bundles").resolve(b.id))) referenced.add(b.sha256);
                } catch (Exception ignored) {
                    // A kept release without a readable manifest references nothing.
                }
            }
        } catch (IOException ignored) {
            return;
        }
        try (Stream<Path> names = Files.list(cache.resolve("downloads"))) {
            for (Path file : (Iterable<Path>) names::iterator) {
                String name = file.getFileName().toString();
                if (!referenced.contains(name) && !name.endsWith(".part")) removeTree(file);
            }
        } catch (IOException ignored) {
            // Garbage collection is best effort: the next fetch tries again.
        }
    }

    /** Deletes a tree without following links. */
    public static void removeTree(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // Best effort: what is left is collected next time.
        }
    }

    /** Recreates the tree under {@code source} at {@code destination} from hard links (copies where links fail); links in it are skipped. */
    public static void linkTree(Path source, Path destination) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(destination.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!attrs.isRegularFile()) return FileVisitResult.CONTINUE;
                Path to = destination.resolve(source.relativize(file).toString());
                try {
                    Files.createLink(to, file);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(file, to);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
