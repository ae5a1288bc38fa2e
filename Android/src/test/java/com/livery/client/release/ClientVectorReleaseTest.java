package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.LiveryException;
import com.livery.client.ReleaseInstaller;
import com.livery.client.http.BodyTooLongException;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.TransferPolicy;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import com.livery.client.json.Json;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import com.livery.client.manifest.DownloadManifest;
import com.livery.client.manifest.RolloutBucket;
import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.Repo;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release side of every case {@code livery vectors} writes (docs/client-vectors.md): each case with a release is
 * installed step by step into one cache, served with byte ranges (so the delta cases use them), and each step is
 * checked as its case.json says: accepted or refused with the error class, the root version, the installed release
 * and what it holds. Also every staged-rollout bucket of rollout-buckets.json.
 */
class ClientVectorReleaseTest {
    private static final Pattern SERVING = Pattern.compile("Serving HTTP on 127\\.0\\.0\\.1 port (\\d+)");

    @Test
    void everyReleaseCaseIsAnsweredAsItsCaseSays(@TempDir Path work) throws Exception {
        Path vectors = work.resolve("vectors");
        LiveryTool.run(work, Repo.livery().toString(), "vectors", vectors.toString());
        JsonObject index = JsonObject.parse(Files.readAllBytes(vectors.resolve("index.json")), "index.json");
        Map<String, String> parents = new HashMap<>();
        for (Object e : index.list("errors")) {
            JsonObject error = JsonObject.of(e, "error");
            parents.put(error.string("class"), error.has("parent") && error.raw("parent") != Json.NULL ? error.string("parent") : null);
        }
        List<String> failures = new ArrayList<>();
        int cases = 0, steps = 0;
        try (LiveryTool.Server server = LiveryTool.start(work, SERVING, "python3", Repo.root().resolve("Tests/interop/range_http_server.py").toString(), vectors.toString())) {
            for (Object item : index.list("cases")) {
                String id = JsonObject.of(item, "case").string("id");
                JsonObject vector = JsonObject.parse(Files.readAllBytes(vectors.resolve(id).resolve("case.json")), id);
                if (!Boolean.TRUE.equals(vector.raw("release"))) continue;
                cases++;
                Path cache = work.resolve("caches").resolve(id);
                byte[] root = Files.readAllBytes(vectors.resolve(id).resolve(vector.string("trustedRoot")));
                for (Object s : vector.list("steps")) {
                    JsonObject step = JsonObject.of(s, id + " step");
                    steps++;
                    String where = id + " step " + step.integer("step");
                    if (step.has("corruptInstalled")) {
                        for (String file : step.strings("corruptInstalled")) Files.write(cache.resolve("current/bundles").resolve(file), "changed on the device".getBytes());
                    }
                    String got = null;
                    try {
                        FetchResult result = ReleaseInstaller.fetch(request(server.url() + "/" + id + "/" + step.string("repository") + "/", cache, root, step));
                        if (result.offline) got = classify(result.cause);
                        // The delta cases must have used (or refused) the delta, not merely installed the right release.
                        if (id.equals("delta-clean") && step.integer("step") == 2 && !result.deltas.equals(List.of("core"))) failures.add(where + ": core did not come by delta");
                        if (id.equals("delta-wrong-base") && step.integer("step") == 2 && !result.deltaFallbacks.containsKey("core")) failures.add(where + ": the wrong base was not refused");
                    } catch (LiveryException e) {
                        got = classify(e);
                    }
                    String want = step.string("expect").equals("accept") ? null : step.string("error");
                    boolean agrees = want == null ? got == null : got != null && (got.equals(want) || want.equals(parents.get(got)));
                    if (!agrees) failures.add(where + ": expected " + (want == null ? "accept" : want) + ", got " + (got == null ? "accept" : got));
                    check(where, step, cache, failures);
                }
            }
        }
        assertTrue(cases >= 29, "only " + cases + " release cases");
        assertTrue(failures.isEmpty(), steps + " steps of " + cases + " cases; disagreements:\n" + String.join("\n", failures));
    }

    private static FetchRequest request(String base, Path cache, byte[] root, JsonObject step) throws JsonException {
        FetchRequest r = new FetchRequest("vectors", new RepositoryHttp(URI.create(base), new HttpFetcher(TransferPolicy.STANDARD)), cache, TufRepository.opener(Clock.systemUTC()));
        r.bootstrapRoot = root;
        JsonObject asked = step.object("request");
        r.locale = asked.string("locale");
        r.programs = asked.strings("programs");
        return r;
    }

    /** The root version, the installed release and what it holds, as the step says. */
    private static void check(String where, JsonObject step, Path cache, List<String> failures) throws Exception {
        JsonObject trustedRoot = JsonObject.of(JsonObject.parse(Files.readAllBytes(cache.resolve("metadata/root.json")), "root.json").raw("signed"), "root signed");
        if (trustedRoot.integer("version") != step.integer("rootVersion")) failures.add(where + ": trusts root v" + trustedRoot.integer("version"));
        Object expected = step.raw("installedRelease");
        Path current = cache.resolve("current");
        if (expected == null || expected == Json.NULL) {
            if (Files.exists(current)) failures.add(where + ": a release is installed, none expected");
            return;
        }
        if (!Files.exists(current)) {
            failures.add(where + ": nothing installed, release " + expected + " expected");
            return;
        }
        byte[] manifestBytes = Files.readAllBytes(current.resolve(DownloadManifest.TARGET_NAME));
        DownloadManifest manifest = DownloadManifest.parse(manifestBytes);
        if (manifest.release != (Long) expected) failures.add(where + ": release " + manifest.release + " installed, " + expected + " expected");
        for (Object h : step.list("holds")) {
            JsonObject held = JsonObject.of(h, "held");
            String target = held.string("target"), sha = held.string("sha256");
            if (target.equals(DownloadManifest.TARGET_NAME)) {
                if (!com.livery.client.digest.Sha256.hex(manifestBytes).equals(sha)) failures.add(where + ": another manifest is installed");
                continue;
            }
            String bundle = target.substring(0, target.length() - ".zip".length());
            DownloadManifest.Bundle b = manifest.bundle(bundle);
            if (b == null || !b.sha256.equals(sha) || !Files.isDirectory(current.resolve("bundles").resolve(bundle))) failures.add(where + ": does not hold " + target);
        }
    }

    /** The vectors' error class of a failure: the TUF core's exception names, the release layer's kinds. */
    static String classify(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String name = t.getClass().getSimpleName();
            if (name.endsWith("Exception") && t.getClass().getPackageName().endsWith(".tuf")) {
                String base = name.substring(0, name.length() - "Exception".length());
                switch (base) {
                    case "Deserialization": case "EqualVersionNumber": case "Storage": return "RepositoryError";
                    case "Repository": return "RepositoryError";
                    default: return base;
                }
            }
            if (t instanceof BodyTooLongException) return "DownloadLengthMismatch";
            if (t instanceof LiveryException) {
                switch (((LiveryException) t).kind()) {
                    case UNSAFE_ARCHIVE: return "UnsafeArchive";
                    case LENGTH_OR_HASH_MISMATCH: if (t.getCause() == null) return "LengthOrHashMismatch"; break;
                    case DOWNLOAD_LENGTH_MISMATCH: return "DownloadLengthMismatch";
                    default:
                        if (t.getCause() == null && t.getMessage().contains("is not a signed target")) return "TargetNotFound";
                }
            }
        }
        return "Unclassified(" + error + ")";
    }

    @Test
    void everyRolloutBucketMatchesTheVectors(@TempDir Path work) throws Exception {
        LiveryTool.run(work, Repo.livery().toString(), "vectors", work.resolve("v").toString());
        JsonObject file = JsonObject.parse(Files.readAllBytes(work.resolve("v/rollout-buckets.json")), "rollout-buckets.json");
        int checked = 0;
        for (Object c : file.list("cases")) {
            JsonObject bucket = JsonObject.of(c, "bucket case");
            String tenant = bucket.string("tenant"), channel = bucket.string("channel"), install = bucket.string("installId");
            long release = bucket.integer("release");
            assertEquals(bucket.integer("bucket"), RolloutBucket.bucket(tenant, channel, release, install), install);
            JsonObject takes = bucket.object("takesStaged");
            for (String points : takes.keys()) {
                assertEquals(takes.raw(points), RolloutBucket.takesStaged(tenant, channel, release, install, Integer.parseInt(points)), install + " at " + points);
            }
            checked++;
        }
        assertTrue(checked >= 5, "only " + checked + " bucket cases");
    }
}
