package com.livery.client.delta;

import java.nio.file.Path;

/** Where delta downloads read byte ranges: the repository over HTTP (range requests), or a folder in tests. */
public interface RangeSource {
    /**
     * Writes exactly bytes {@code [start, end)} of {@code path} (relative to the repository, such as
     * {@code targets/<sha256>.core.files}) into the new file {@code into}; anything else (a whole file for a range,
     * a short answer) throws.
     */
    void copyRange(String path, long start, long end, Path into) throws Exception;
}
