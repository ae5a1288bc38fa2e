package com.livery.client.files;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/** I/O errors that say which file they are about: Java's write(2) failures ("No space left on device") name none. */
public final class FileErrors {
    private FileErrors() {}

    /** {@code e} as a {@link FileSystemException} naming {@code file}, unless it already names one. */
    public static IOException naming(Path file, IOException e) {
        if (e instanceof FileSystemException && ((FileSystemException) e).getFile() != null) return e;
        FileSystemException named = new FileSystemException(file.toString(), null, e.getMessage());
        named.initCause(e);
        return named;
    }
}
