package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.ReleaseInstaller;
import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.SampleRelease;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    @Test
    void javaClientInstallsFromABucketWithPresignedProtectedBundlesAndUpdatesLikeLiveryFetch(@TempDir Path work) throws Exception {
        SampleRelease sample = SampleRelease.copied(work);
        sample.livery("build");
        Path root = sample.root();
        // The voucher server's folder holds no release: only its voucher database, where the code is issued.
        Path api = work.resolve("api/Output");
        Files.createDirectories(api.resolve(".livery"));
        String code = sample.livery("vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "2",
                "--vouchers", api.resolve(".livery/vouchers.sqlite").toString()).trim();

        try (S3TestStore store = S3TestStore.start(work.resolve("s3"))) {
            Map<String, String> env = store.environment();
            store.makePublicBucket("livery-apps", "apps");
            sample.livery(env, "publish", "--to", "s3://livery-apps/apps", "sonic-walkscape");
            String bucket = store.endpoint + "/livery-apps/apps";
            // Anyone reads the metadata; nobody reads the bucket's listing or a protected bundle without a presigned URL.
            assertEquals(200, S3TestStore.anonymousStatus(bucket + "/sonic-walkscape/metadata/1.root.json"));
            assertEquals(403, S3TestStore.anonymousStatus(store.endpoint + "/livery-apps?list-type=2"));
            // The file name of the protected tour's bundle as published (<sha256>.tour.rome-trastevere.zip).
            String protectedName = sample.targets(".tour.rome-trastevere.zip").get(0).getFileName().toString();
            assertEquals(403, S3TestStore.anonymousStatus(bucket + "/sonic-walkscape/protected/" + protectedName));

            try (LiveryTool.Server vouchers = sample.serve(work.resolve("api"), env, "--output", api.toString(), "--releases", "s3://livery-apps/apps",
                    "--endpoint", store.endpoint, "--content-keys", work.resolve(".livery-keys").toString())) {
                Path javaCache = sample.javaCache();
                FetchResult first = javaFetch(bucket, vouchers.url(), javaCache, root, List.of(code));
                assertFalse(first.offline, String.valueOf(first.problem));
                assertEquals(1, first.release);
                assertTrue(first.downloaded.containsAll(List.of("tour.rome-trastevere", "tour.rome-trastevere.fr", "tour.florence-renaissance.fr")), first.downloaded.toString());
                liveryFetch(sample, bucket, vouchers.url(), "--root", root.toString(), "--voucher", code);
                sample.assertSameInstalledTrees();
                // The code was redeemed at the voucher server (twice: one device each), and no file came from it.
                assertEquals(2, SampleRelease.occurrences(vouchers.log(), "POST /sonic-walkscape/vouchers/redeem 200"), vouchers.log());
                assertFalse(vouchers.log().contains("/targets/") || vouchers.log().contains("/metadata/"), vouchers.log());
                String installedTour = Files.readString(javaCache.resolve("current/bundles/tour.rome-trastevere/tours/rome-trastevere/tour.json"));
                assertTrue(installedTour.contains("rome-trastevere"), "the protected tour is decrypted on install");

                // One French audio file changes: release 2 in the bucket, one bundle rebuilt, taken by delta from the bucket.
                sample.changeFrenchAudio("it");
                sample.livery("build");
                sample.livery(env, "publish", "--to", "s3://livery-apps/apps", "sonic-walkscape");
                FetchResult second = javaFetch(bucket, vouchers.url(), javaCache, root, List.of());
                assertFalse(second.offline, String.valueOf(second.problem));
                assertEquals(2, second.release);
                assertEquals(List.of("tour.florence-renaissance.fr"), second.downloaded);
                assertEquals(List.of("tour.florence-renaissance.fr"), second.deltas, "range requests to the bucket: " + second.deltaFallbacks);
                liveryFetch(sample, bucket, vouchers.url());
                sample.assertSameInstalledTrees();
            }
        }
    }

    private static FetchResult javaFetch(String bucket, String voucherServer, Path cache, Path root, List<String> vouchers) throws Exception {
        FetchRequest request = SampleRelease.request(bucket, cache, root);
        request.tours = List.of("florence-renaissance", "rome-trastevere");
        request.vouchers = vouchers;
        request.voucherServer = URI.create(voucherServer + "/sonic-walkscape");
        return ReleaseInstaller.fetch(request);
    }

    private static void liveryFetch(SampleRelease sample, String bucket, String voucherServer, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--voucher-server", voucherServer, "--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere"));
        args.addAll(List.of(more));
        sample.liveryFetch(bucket, args.toArray(new String[0]));
    }
}
