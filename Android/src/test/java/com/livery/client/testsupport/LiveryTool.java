package com.livery.client.testsupport;

import com.livery.client.digest.Sha256;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the live tests share: commands run to their end, servers started on free ports, and tree digests. */
public final class LiveryTool {
    private LiveryTool() {}



    /** Runs a command in {@code folder}; returns its standard output, failing on a non-zero exit. */
    public static String run(Path folder, String... command) throws IOException, InterruptedException {
        return run(folder, Map.of(), command);
    }

    /** The same with {@code environment} added to this process's. */
    public static String run(Path folder, Map<String, String> environment, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
        builder.environment().putAll(environment);
        builder.redirectError(folder.resolve("command-errors.log").toFile());
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + Files.readString(folder.resolve("command-errors.log")));
        }
        return out;
    }

    /** A server process, the port it said it listens on, and what it printed since (its request log). */
    public static final class Server implements AutoCloseable {
        final Process process;
        public final int port;
        private final StringBuffer log = new StringBuffer();

        Server(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        public String url() { return "http://127.0.0.1:" + port; }

        /** The lines the server printed after the one naming its port. */
        public String log() { return log.toString(); }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        }
    }

    /** Starts {@code command} and reads its output until a line names the port (any free one: the servers bind port 0). */
    public static Server start(Path folder, Pattern portLine, String... command) throws IOException {
        return start(folder, Map.of(), portLine, command);
    }

    public static Server start(Path folder, Map<String, String> environment, Pattern portLine, String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process p = builder.start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = lines.readLine()) != null) {
            Matcher m = portLine.matcher(line);
            if (m.find()) {
                // The rest of its output is read as it comes, so the server never blocks on a full pipe.
                Server server = new Server(p, Integer.parseInt(m.group(1)));
                Thread drain = new Thread(() -> {
                    try {
                        String next;
                        while ((next = lines.readLine()) != null) server.log.append(next).append('\n');
                    } catch (IOException ignored) {
                        // The server stopped.
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return server;
            }
        }
        p.destroyForcibly();
        throw new IOException(String.join(" ", command) + " ended without saying its port");
    }

    /** Every file under {@code root} (hidden ones included, links not followed) by relative path, with its SHA-256. */
    public static Map<String, String> treeDigests(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        Files.walkFileTree(root.toRealPath(), new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                out.put(root.toRealPath().relativize(file).toString() + (attrs.isSymbolicLink() ? " (link)" : ""), Sha256.hex(Files.readAllBytes(file)));
                return FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    public static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\n")) if (!l.isBlank()) out.add(l.trim());
        return out;
    }
}
