package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.ReleaseInstaller;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.TransferPolicy;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end test with the releases in a bucket on a real object store (Ceph's RADOS Gateway):
 * {@code livery build} → {@code livery publish} to a bucket readable by anyone except its {@code protected/} folder →
 * the Java client installs sonic-walkscape with the voucher-protected tour, redeeming the code at a
 * {@code livery serve --releases s3://…} that holds no release files and answers with presigned URLs, every byte of
 * content coming from the bucket → a one-file change, build and publish again, and the Java client updates by delta
 * with range requests to the bucket. After each step the installed tree is byte-identical to the one {@code livery
 * fetch} installs from the same bucket.
 */
class ObjectStoreEndToEndTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void javaClientInstallsFromABucketWithPresignedProtectedBundlesAndUpdatesLikeLiveryFetch(@TempDir Path work) throws Exception {
        Path livery = LiveryTool.livery();
        EndToEndTest.copyTree(LiveryTool.repo().resolve("Tenants/sonic-walkscape"), work.resolve("Tenants/sonic-walkscape"));
        LiveryTool.run(work, livery.toString(), "build");
        Path root = work.resolve("Output/sonic-walkscape/metadata/1.root.json");
        // The voucher server's folder holds no release: only its voucher database, where the code is issued.
        Path api = work.resolve("api/Output");
        Files.createDirectories(api.resolve(".livery"));
        String code = LiveryTool.run(work, livery.toString(), "vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "2",
                "--vouchers", api.resolve(".livery/vouchers.sqlite").toString()).trim();

        try (S3TestStore store = S3TestStore.start(work.resolve("s3"))) {
            Map<String, String> env = store.environment();
            store.makePublicBucket("livery-apps", "apps");
            LiveryTool.run(work, env, livery.toString(), "publish", "--to", "s3://livery-apps/apps", "sonic-walkscape");
            String bucket = store.endpoint + "/livery-apps/apps";
            // Anyone reads the metadata; nobody reads the bucket's listing or a protected bundle without a presigned URL.
            assertEquals(200, S3TestStore.anonymousStatus(bucket + "/sonic-walkscape/metadata/1.root.json"));
            assertEquals(403, S3TestStore.anonymousStatus(store.endpoint + "/livery-apps?list-type=2"));
            String protectedName = protectedObject(work);
            assertEquals(403, S3TestStore.anonymousStatus(bucket + "/sonic-walkscape/protected/" + protectedName));

            try (LiveryTool.Server vouchers = LiveryTool.start(work.resolve("api"), env, LISTENING, livery.toString(), "serve", "--output", api.toString(),
                    "--port", "0", "--releases", "s3://livery-apps/apps", "--endpoint", store.endpoint,
                    "--content-keys", work.resolve(".livery-keys").toString())) {
                Path javaCache = work.resolve("java-cache/sonic-walkscape");
                FetchResult first = javaFetch(bucket, vouchers.url(), javaCache, root, List.of(code));
                assertFalse(first.offline, String.valueOf(first.problem));
                assertEquals(1, first.release);
                assertTrue(first.downloaded.containsAll(List.of("tour.rome-trastevere", "tour.rome-trastevere.fr", "tour.florence-renaissance.fr")), first.downloaded.toString());
                liveryFetch(work, livery, bucket, vouchers.url(), "--root", root.toString(), "--voucher", code);
                assertSameTrees(work);
                // The code was redeemed at the voucher server (twice: one device each), and no file came from it.
                assertEquals(2, count(vouchers.log(), "POST /sonic-walkscape/vouchers/redeem 200"), vouchers.log());
                assertFalse(vouchers.log().contains("/targets/") || vouchers.log().contains("/metadata/"), vouchers.log());
                String installedTour = Files.readString(javaCache.resolve("current/bundles/tour.rome-trastevere/tours/rome-trastevere/tour.json"));
                assertTrue(installedTour.contains("rome-trastevere"), "the protected tour is decrypted on install");

                // One French audio file changes: release 2 in the bucket, one bundle rebuilt, taken by delta from the bucket.
                Path audio = work.resolve("Tenants/sonic-walkscape/tours/florence-renaissance/audio");
                Files.copy(audio.resolve("it/03-signoria.mp3"), audio.resolve("fr/03-signoria.mp3"), StandardCopyOption.REPLACE_EXISTING);
                LiveryTool.run(work, livery.toString(), "build");
                LiveryTool.run(work, env, livery.toString(), "publish", "--to", "s3://livery-apps/apps", "sonic-walkscape");
                FetchResult second = javaFetch(bucket, vouchers.url(), javaCache, root, List.of());
                assertFalse(second.offline, String.valueOf(second.problem));
                assertEquals(2, second.release);
                assertEquals(List.of("tour.florence-renaissance.fr"), second.downloaded);
                assertEquals(List.of("tour.florence-renaissance.fr"), second.deltas, "range requests to the bucket: " + second.deltaFallbacks);
                liveryFetch(work, livery, bucket, vouchers.url());
                assertSameTrees(work);
            }
        }
    }

    /** The file name of the protected tour's bundle as published ({@code <sha256>.tour.rome-trastevere.zip}). */
    private static String protectedObject(Path work) throws Exception {
        try (Stream<Path> files = Files.list(work.resolve("Output/sonic-walkscape/targets"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tour.rome-trastevere.zip")).findFirst().orElseThrow();
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) n++;
        return n;
    }

    private static FetchResult javaFetch(String bucket, String voucherServer, Path cache, Path root, List<String> vouchers) throws Exception {
        HttpFetcher http = new HttpFetcher(TransferPolicy.STANDARD);
        FetchRequest request = new FetchRequest("sonic-walkscape", new RepositoryHttp(URI.create(bucket + "/sonic-walkscape/"), http), cache,
                TufRepository.opener(Clock.systemUTC()));
        request.bootstrapRoot = Files.readAllBytes(root);
        request.locale = "fr";
        request.tours = List.of("florence-renaissance", "rome-trastevere");
        request.vouchers = vouchers;
        request.voucherServer = URI.create(voucherServer + "/sonic-walkscape");
        return ReleaseInstaller.fetch(request);
    }

    private static void liveryFetch(Path work, Path livery, String bucket, String voucherServer, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(livery.toString(), "fetch", "sonic-walkscape", "--server", bucket, "--voucher-server", voucherServer,
                "--cache", "swift-cache", "--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere"));
        command.addAll(List.of(more));
        LiveryTool.run(work, command.toArray(new String[0]));
    }

    private static void assertSameTrees(Path work) throws Exception {
        Map<String, String> java = LiveryTool.treeDigests(work.resolve("java-cache/sonic-walkscape/current"));
        Map<String, String> swift = LiveryTool.treeDigests(work.resolve("swift-cache/sonic-walkscape/current"));
        assertTrue(java.size() > 20, "the installed tree holds " + java.size() + " files");
        assertEquals(swift, java);
        assertEquals(Files.readSymbolicLink(work.resolve("swift-cache/sonic-walkscape/current")), Files.readSymbolicLink(work.resolve("java-cache/sonic-walkscape/current")));
    }
}
