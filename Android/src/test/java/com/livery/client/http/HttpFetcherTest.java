package com.livery.client.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Request headers, range resumption and redirects against a small in-test server (the JDK's own HttpServer). */
class HttpFetcherTest {
    private static final byte[] FILE = "0123456789abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
    private HttpServer server;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/file", this::file);
        server.createContext("/wrong-range", exchange -> {
            exchange.getResponseHeaders().add("Content-Range", "bytes 0-" + (FILE.length - 1) + "/" + FILE.length);
            send(exchange, 206, FILE);
        });
        server.createContext("/moved", exchange -> {
            seen.add("moved Authorization=" + exchange.getRequestHeaders().getFirst("Authorization"));
            exchange.getResponseHeaders().add("Location", "/file");
            send(exchange, 301, new byte[0]);
        });
        server.createContext("/to-ftp", exchange -> {
            exchange.getResponseHeaders().add("Location", "ftp://127.0.0.1/file");
            send(exchange, 302, new byte[0]);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void file(HttpExchange exchange) throws IOException {
        String range = exchange.getRequestHeaders().getFirst("Range");
        seen.add("Accept-Encoding=" + exchange.getRequestHeaders().getFirst("Accept-Encoding") + " Range=" + range
                + " Authorization=" + exchange.getRequestHeaders().getFirst("Authorization"));
        if (range != null && range.startsWith("bytes=")) {
            int from = Integer.parseInt(range.substring(6, range.indexOf('-')));
            exchange.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + (FILE.length - 1) + "/" + FILE.length);
            send(exchange, 206, java.util.Arrays.copyOfRange(FILE, from, FILE.length));
        } else {
            send(exchange, 200, FILE);
        }
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    @Test
    void asksForNoContentCoding() throws Exception {
        new HttpFetcher(TransferPolicy.STANDARD).fetch(HttpRequest.get(url("/file")), 100);
        assertEquals(List.of("Accept-Encoding=identity Range=null Authorization=null"), seen);
    }

    @Test
    void resumesAPartialDownloadWithARange(@TempDir Path dir) throws Exception {
        Path part = dir.resolve("file.part");
        Files.write(part, java.util.Arrays.copyOf(FILE, 10));
        List<Long> progress = new CopyOnWriteArrayList<>();
        HttpAnswer answer = new HttpFetcher(TransferPolicy.STANDARD).download(HttpRequest.get(url("/file")), part, FILE.length, progress::add);
        assertEquals(206, answer.status());
        assertArrayEquals(FILE, Files.readAllBytes(part));
        assertEquals("Accept-Encoding=identity Range=bytes=10- Authorization=null", seen.get(0));
        assertEquals(Long.valueOf(FILE.length), progress.get(progress.size() - 1));
    }

    @Test
    void refusesARangeAnswerThatStartsElsewhere(@TempDir Path dir) throws Exception {
        Path part = dir.resolve("file.part");
        Files.write(part, java.util.Arrays.copyOf(FILE, 10));
        TransferException e = assertThrows(TransferException.class,
                () -> new HttpFetcher(TransferPolicy.STANDARD).download(HttpRequest.get(url("/wrong-range")), part, 1000, null));
        assertTrue(e.getMessage().contains("asked for the bytes from 10 on"), e.getMessage());
    }

    @Test
    void followsARedirectAndKeepsTheTokenOnItsOrigin() throws Exception {
        HttpAnswer answer = new HttpFetcher(TransferPolicy.STANDARD).fetch(HttpRequest.get(url("/moved")).withHeader("Authorization", "Bearer t"), 100);
        assertEquals(200, answer.status());
        assertEquals(List.of("moved Authorization=Bearer t", "Accept-Encoding=identity Range=null Authorization=Bearer t"), seen);
    }

    @Test
    void refusesARedirectToAnotherScheme() {
        TransferException e = assertThrows(TransferException.class, () -> new HttpFetcher(TransferPolicy.STANDARD).fetch(HttpRequest.get(url("/to-ftp")), 100));
        assertTrue(e.getMessage().contains("not an http(s) URL"), e.getMessage());
    }

    @Test
    void redirectRulesDowngradesOriginsAndMethods() throws Exception {
        HttpRequest secure = HttpRequest.get(URI.create("https://cdn.example/a?sig=secret")).withHeader("Authorization", "Bearer t");
        TransferException downgrade = assertThrows(TransferException.class, () -> Redirects.next(secure, "http://cdn.example/a", 302, 1, TransferPolicy.STANDARD));
        assertFalse(downgrade.getMessage().contains("secret"), downgrade.getMessage());
        assertTrue(Redirects.next(secure, "https://other.example/a", 302, 1, TransferPolicy.STANDARD).header("Authorization").isEmpty());
        assertEquals("Bearer t", Redirects.next(secure, "/b", 307, 1, TransferPolicy.STANDARD).header("Authorization").orElseThrow());
        HttpRequest post = HttpRequest.post(URI.create("https://v.example/redeem"), "application/json", new byte[] {1});
        HttpRequest afterSeeOther = Redirects.next(post, "/done", 303, 1, TransferPolicy.STANDARD);
        assertEquals("GET", afterSeeOther.method());
        assertTrue(afterSeeOther.body().isEmpty());
        assertEquals("POST", Redirects.next(post, "/again", 307, 1, TransferPolicy.STANDARD).method());
        assertThrows(TransferException.class, () -> Redirects.next(secure, "/c", 302, 11, TransferPolicy.STANDARD));
    }

    @Test
    void deadlineGrowsWithTheLength() {
        assertEquals(java.time.Duration.ofSeconds(40), TransferPolicy.STANDARD.deadline(16 << 10));
        assertEquals(java.time.Duration.ofSeconds(30), TransferPolicy.STANDARD.deadline(1000));
    }
}
