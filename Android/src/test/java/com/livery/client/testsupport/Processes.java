package com.livery.client.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a child process to its end and returns what it printed. */
public final class Processes {
    /** A finished process. */
    public static final class Result {
        public final int status;
        public final String stdout;
        public final String stderr;
        public final long millis;

        Result(int status, String stdout, String stderr, long millis) {
            this.status = status;
            this.stdout = stdout;
            this.stderr = stderr;
            this.millis = millis;
        }
    }

    private Processes() {}

    public static Result run(List<String> command, String stdin, long timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("proc", ".out"), err = Files.createTempFile("proc", ".err");
        try {
            long start = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (stdin != null) process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " ran longer than " + timeoutSeconds + " s");
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err), millis);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Runs a Python script of the test environment ({@link Repo#python()}) with {@code stdin}; fails on a non-zero exit. */
    public static String python(String script, String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(Repo.python().toString(), "-c", script));
        command.addAll(List.of(args));
        Result result = run(command, stdin, 120);
        if (result.status != 0) throw new IllegalStateException("python failed (" + result.status + "): " + result.stderr);
        return result.stdout;
    }
}
