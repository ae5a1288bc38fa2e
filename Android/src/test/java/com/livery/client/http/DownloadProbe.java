package com.livery.client.http;

import java.net.URI;
import java.nio.file.Path;

/** A child JVM's download for the memory test: prints how it ended (the test runs it with a small heap). */
public final class DownloadProbe {
    private DownloadProbe() {}

    public static void main(String[] args) throws Exception {
        try {
            HttpAnswer answer = new HttpFetcher(HostileServerTest.SHORT).download(HttpRequest.get(URI.create(args[0])), Path.of(args[1]), Long.parseLong(args[2]), null);
            System.out.println("HTTP " + answer.status());
        } catch (TransferException e) {
            System.out.println(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
