package com.livery.client.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Python HTTP server started for a test on 127.0.0.1 and a free port, read from the first line it prints that
 * holds a port number ({@code python3 -m http.server 0} and the interop servers both print one); stopped on close.
 */
public final class PortServer implements AutoCloseable {
    private static final Pattern PORT = Pattern.compile("(?:port |^)(\\d{2,5})\\b");
    private final Process process;
    private final int port;

    public PortServer(List<String> command) throws IOException {
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        int found = -1;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            Matcher m = PORT.matcher(line.trim());
            if (m.find()) {
                found = Integer.parseInt(m.group(1));
                break;
            }
        }
        if (found < 0) {
            process.destroyForcibly();
            throw new IOException("the server printed no port: " + command);
        }
        port = found;
        // Keep reading its output so it never blocks on a full pipe.
        Thread drain = new Thread(() -> {
            try {
                while (lines.readLine() != null) { /* discard */ }
            } catch (IOException ignored) {
                // the server stopped
            }
        });
        drain.setDaemon(true);
        drain.start();
    }

    /** {@code python3 -m http.server} over {@code folder}. */
    public static PortServer staticFiles(java.nio.file.Path folder) throws IOException {
        return new PortServer(List.of("python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.toString()));
    }

    public int port() { return port; }

    public String base() { return "http://127.0.0.1:" + port; }

    @Override public void close() {
        process.destroy();
    }
}
