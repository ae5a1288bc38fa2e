package com.livery.client.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where the tests find the repository, its Python environment and the livery binary. */
public final class Repo {
    private Repo() {}

    /** The repository root: LIVERY_REPO (set by Android/build.sh), else the working directory's parent of Android/. */
    public static Path root() {
        String env = System.getenv("LIVERY_REPO");
        if (env != null) return Path.of(env);
        Path here = Path.of("").toAbsolutePath();
        return Files.isDirectory(here.resolve("Android")) ? here : here.getParent();
    }

    /** The livery binary: LIVERY, else the repository's release build, else its debug build, else /tmp/livery-ref. */
    public static Path livery() {
        String env = System.getenv("LIVERY");
        if (env != null) return Path.of(env);
        for (Path p : List.of(root().resolve(".build/release/livery"), root().resolve(".build/debug/livery"), Path.of("/tmp/livery-ref"))) {
            if (Files.isExecutable(p)) return p;
        }
        throw new IllegalStateException("no livery binary: build it (make build) or set LIVERY");
    }

    /** python-tuf, securesystemslib and cryptography's Python: LIVERY_PYTHON, else .venv-test (make test-venv). */
    public static Path python() {
        String env = System.getenv("LIVERY_PYTHON");
        Path path = env != null ? Path.of(env) : root().resolve(".venv-test/bin/python");
        if (!Files.isExecutable(path)) throw new IllegalStateException("no Python with python-tuf at " + path + ": run `make test-venv` or set LIVERY_PYTHON");
        return path;
    }
}
