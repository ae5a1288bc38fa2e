package com.livery.client.extract;

import com.livery.client.files.FileErrors;
import com.livery.client.LiveryException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The writing half of every extraction (zip, tar.zst, delta installs): it counts entries and bytes against
 * the caps, makes folders, and creates and fills files; nothing else writes. Files are created new
 * (CREATE_NEW is O_CREAT|O_EXCL: never an overwrite, never through a link) under folders it made itself.
 */
public final class ExtractionSink {
    private final String archiveName;
    private final Path destination;
    private final ExtractionLimits limits;
    private final long byteBudget;
    private final List<String> written = new ArrayList<>();
    private final Set<String> made = new HashSet<>(Set.of(""));
    private int entries;
    private long total;

    public ExtractionSink(String archiveName, Path destination, ExtractionLimits limits, long byteBudget) {
        this.archiveName = archiveName;
        this.destination = destination;
        this.limits = limits;
        this.byteBudget = byteBudget;
    }

    public List<String> written() { return written; }
    public ExtractionLimits limits() { return limits; }

    /** Counts one more entry against the cap, before anything of it is read. */
    public void countEntry() throws UnsafeArchive {
        entries++;
        if (entries > limits.maxEntries) throw new UnsafeArchive(archiveName + " has more than " + limits.maxEntries + " entries");
    }

    /** Makes the folder {@code relative} (normalised) and its parents; anything already there that this sink did not make is refused. */
    public void makeFolders(String relative) throws LiveryException {
        if (relative.isEmpty()) return;
        String path = "";
        for (String component : relative.split("/")) {
            path = path.isEmpty() ? component : path + "/" + component;
            if (made.contains(path)) continue;
            try {
                Files.createDirectory(destination.resolve(path));
            } catch (FileAlreadyExistsException e) {
                throw new UnsafeArchive(archiveName + ": cannot create folder '" + path + "': something is already there");
            } catch (IOException e) {
                throw new LiveryException(LiveryException.Kind.STORAGE, "cannot create folder '" + path + "': " + e.getMessage(), e);
            }
            made.add(path);
        }
    }

    /** Creates the new file {@code relative} (normalised) and returns a stream that counts every byte against the budget. */
    public OutputStream createFile(String relative) throws LiveryException {
        int slash = relative.lastIndexOf('/');
        makeFolders(slash < 0 ? "" : relative.substring(0, slash));
        Path path = destination.resolve(relative);
        OutputStream out;
        try {
            out = Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (FileAlreadyExistsException e) {
            throw new UnsafeArchive(archiveName + ": cannot create '" + relative + "' (it exists; duplicate entry?)");
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, archiveName + ": cannot create '" + relative + "': " + e.getMessage(), e);
        }
        written.add(relative);
        return new CountingOutput(out, path);
    }

    /** Counts bytes as they are written, so a compression bomb stops part-way, whatever the sizes the archive claims. */
    private final class CountingOutput extends OutputStream {
        private final OutputStream out;
        private final Path path;

        CountingOutput(OutputStream out, Path path) {
            this.out = out;
            this.path = path;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            total += len;
            if (total > byteBudget) throw new BudgetExceeded(archiveName + " expands to more than " + byteBudget + " bytes (a compression bomb?)");
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw new WriteFailed(FileErrors.naming(path, e));
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw new WriteFailed(FileErrors.naming(path, e));
            }
        }
    }

    /** A write to the destination that failed (a full disk among others), as opposed to a bad archive: the readers report it as storage. */
    static final class WriteFailed extends IOException {
        private static final long serialVersionUID = 1L;

        WriteFailed(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Carries the budget refusal through OutputStream's IOException; the readers turn it back into {@link UnsafeArchive}. */
    static final class BudgetExceeded extends IOException {
        private static final long serialVersionUID = 1L;

        BudgetExceeded(String message) {
            super(message);
        }
    }
}
