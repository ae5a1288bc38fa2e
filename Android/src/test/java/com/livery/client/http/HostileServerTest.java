package com.livery.client.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.testsupport.PortServer;
import com.livery.client.testsupport.Processes;
import com.livery.client.testsupport.Repo;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transfer policy against Tests/interop/hostile_http_server.py: endless bodies, a 10^12 Content-Length, a gzip
 * bomb, an endless error page, a trickle, a header at one byte a second, redirect loops. Each is refused with its
 * reason, within its deadline (a short policy keeps the tests quick), having read no more than its budget.
 */
class HostileServerTest {
    /** 2 s for the header, then 4 KiB per 1 s window. */
    static final TransferPolicy SHORT = TransferPolicy.STANDARD.withResponseTimeout(Duration.ofSeconds(2))
            .withProgressWindow(Duration.ofSeconds(1)).withMinimumBytesPerWindow(4096);
    private static final int LIMIT = 16 << 10;
    private static final int READ_BUFFER = 64 << 10;
    @TempDir static Path files;
    private static PortServer server;
    private static byte[] timestamp;

    @BeforeAll
    static void start() throws Exception {
        timestamp = new byte[2000];
        new Random(1).nextBytes(timestamp);
        Files.createDirectories(files.resolve("metadata"));
        Files.write(files.resolve("metadata/timestamp.json"), timestamp);
        server = new PortServer(List.of("python3", "-u", Repo.root().resolve("Tests/interop/hostile_http_server.py").toString(), files.toString()));
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
    }

    static URI url(String mode) {
        return URI.create(server.base() + "/" + mode + "/timestamp/metadata/timestamp.json");
    }

    private static long timed(Executable body) throws Throwable {
        long start = System.nanoTime();
        body.execute();
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void readsAnHonestFile() throws Exception {
        HttpAnswer answer = new HttpFetcher(SHORT).fetch(HttpRequest.get(url("normal")), LIMIT);
        assertEquals(200, answer.status());
        assertArrayEquals(timestamp, answer.body());
    }

    @Test
    void stopsAnEndlessBodyAtItsBudget() throws Throwable {
        HttpFetcher fetcher = new HttpFetcher(SHORT);
        long millis = timed(() -> assertThrows(BodyTooLongException.class, () -> fetcher.fetch(HttpRequest.get(url("endless")), LIMIT)));
        assertTrue(fetcher.bytesReceived() <= LIMIT + READ_BUFFER, fetcher.bytesReceived() + " bytes read");
        // Bounds here and below are far above the few hundred milliseconds these take, so that a busy machine (CI runs
        // the whole suite on two cores) does not fail them; an endless or trickling answer that is not cut off would.
        assertTrue(millis < 10_000, millis + " ms");
    }

    @Test
    void refusesAnAnnouncedLengthOverBudgetBeforeReading() throws Exception {
        HttpFetcher fetcher = new HttpFetcher(SHORT);
        BodyTooLongException e = assertThrows(BodyTooLongException.class, () -> fetcher.fetch(HttpRequest.get(url("huge-length")), LIMIT));
        assertTrue(e.getMessage().contains("announces 1000000000000 bytes"), e.getMessage());
        assertEquals(0, fetcher.bytesReceived());
    }

    @Test
    void refusesAContentCodingItDidNotAskFor() throws Exception {
        // The server makes its gzip bomb on the first request for it (about 2 s, longer on a busy machine): a header
        // deadline of SHORT's 2 s would test the machine's load, not the refusal.
        HttpFetcher fetcher = new HttpFetcher(SHORT.withResponseTimeout(Duration.ofSeconds(60)));
        TransferException e = assertThrows(TransferException.class, () -> fetcher.fetch(HttpRequest.get(url("gzip")), 1L << 30));
        assertTrue(e.getMessage().contains("Content-Encoding 'gzip'"), e.getMessage());
        assertEquals(0, fetcher.bytesReceived());
    }

    @Test
    void capsAnEndlessErrorPage() throws Throwable {
        HttpFetcher fetcher = new HttpFetcher(SHORT);
        HttpAnswer[] answer = new HttpAnswer[1];
        long millis = timed(() -> answer[0] = fetcher.fetch(HttpRequest.get(url("error-endless")), LIMIT));
        assertEquals(404, answer[0].status());
        assertEquals(SHORT.errorBodyLimit(), answer[0].body().length);
        assertTrue(fetcher.bytesReceived() <= SHORT.errorBodyLimit() + 8192, fetcher.bytesReceived() + " bytes read");
        assertTrue(millis < 10_000, millis + " ms");
    }

    @Test
    void refusesATrickleAfterOneProgressWindow() throws Throwable {
        HttpFetcher fetcher = new HttpFetcher(SHORT);
        TransferException[] e = new TransferException[1];
        long millis = timed(() -> e[0] = assertThrows(TransferException.class, () -> fetcher.fetch(HttpRequest.get(url("slow-body")), LIMIT)));
        assertTrue(e[0].getMessage().contains("slow retrieval"), e[0].getMessage());
        // One window of 1 s, the watchdog's tick of 250 ms, and the next byte (a second later at most), which is when
        // OpenJDK's connection lets the blocked read return.
        assertTrue(millis >= 900 && millis < 6000, millis + " ms");
    }

    @Test
    void refusesAHeaderThatTricklesInAndHidesTheQuery() throws Throwable {
        HttpFetcher fetcher = new HttpFetcher(SHORT);
        URI signed = URI.create(url("slow-head") + "?X-Signature=secret");
        TransferException[] e = new TransferException[1];
        long millis = timed(() -> e[0] = assertThrows(TransferException.class, () -> fetcher.fetch(HttpRequest.get(signed), LIMIT)));
        assertTrue(e[0].getMessage().contains("no answer within 2 s"), e[0].getMessage());
        assertFalse(e[0].getMessage().contains("secret"), e[0].getMessage());
        assertTrue(millis >= 1900 && millis < 6000, millis + " ms");
    }

    @Test
    void followsAtMostTenRedirects() throws Exception {
        TransferException e = assertThrows(TransferException.class, () -> new HttpFetcher(SHORT).fetch(HttpRequest.get(url("redirect-loop")), LIMIT));
        assertTrue(e.getMessage().contains("more than 10 redirects"), e.getMessage());
    }

    @Test
    void holdsARedirectedAnswerToTheSameBudget() throws Exception {
        assertThrows(BodyTooLongException.class, () -> new HttpFetcher(SHORT).fetch(HttpRequest.get(url("redirect-endless")), LIMIT));
    }

    @Test
    void aDownloadIntoAFileStaysWithinSmallMemory() throws Exception {
        // A child JVM with a 16 MiB heap downloads an endless body into a file with a 64 MiB budget: the body streams
        // to disk and stops at the budget; an unbounded buffer would end in OutOfMemoryError.
        Path file = files.resolve("endless.part");
        Path build = Path.of(System.getenv("ANDROID_BUILD"));
        String classpath = build.resolve("test-classes") + ":" + build.resolve("livery-client.jar");
        Processes.Result run = Processes.run(List.of("java", "-Xmx16m", "-cp", classpath, DownloadProbe.class.getName(),
                server.base() + "/endless/any/metadata/timestamp.json", file.toString(), Long.toString(64L << 20)), null, 60);
        assertEquals(0, run.status, run.stderr);
        assertTrue(run.stdout.contains("BodyTooLongException"), run.stdout + run.stderr);
        // The file holds what arrived within the budget: the read that went past it is not written.
        assertTrue(Files.size(file) <= 64L << 20 && Files.size(file) > (64L << 20) - READ_BUFFER, Files.size(file) + " bytes");
    }
}
