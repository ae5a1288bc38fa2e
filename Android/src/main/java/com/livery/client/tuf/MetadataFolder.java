package com.livery.client.tuf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Trusted metadata kept in a folder as {@code <quoted role>.json} (python-tuf's layout, which the TUF conformance
 * suite reads). Each file is written beside its place, synced, renamed into place and the folder synced: after a
 * power cut the folder holds the old file or the new one, whole.
 */
public final class MetadataFolder implements MetadataStore {
    /** A kept role file larger than this is not read (the largest metadata the updater fetches is 16 MiB). */
    static final long MAX_FILE = 32L << 20;
    private final Path folder;

    public MetadataFolder(Path folder) {
        this.folder = folder;
    }

    public Path folder() { return folder; }

    @Override public Optional<byte[]> load(String role) throws StorageException {
        Path file = folder.resolve(RoleNames.fileName(role));
        try {
            if (Files.size(file) > MAX_FILE) throw new StorageException(file + " is larger than any metadata the client keeps");
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new StorageException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    @Override public void save(String role, byte[] data) throws StorageException {
        String name = RoleNames.fileName(role);
        try {
            Files.createDirectories(folder);
            writeDurably(folder, name, data);
        } catch (IOException e) {
            throw new StorageException("cannot write " + folder.resolve(name) + ": " + e.getMessage(), e);
        }
    }

    /** Writes {@code data} to {@code folder/name} durably: a temporary file, fsync, rename, fsync of the folder. */
    static void writeDurably(Path folder, String name, byte[] data) throws IOException {
        Path partial = folder.resolve("." + name + ".part");
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(data);
            while (buffer.hasRemaining()) channel.write(buffer);
            channel.force(true);
        }
        Files.move(partial, folder.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncFolder(folder);
    }

    /** Makes a rename in {@code folder} durable (Linux and Android sync a directory opened for reading). */
    static void syncFolder(Path folder) throws IOException {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
