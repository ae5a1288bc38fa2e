package com.livery.client.tuf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.digest.Hex;
import com.livery.client.json.Json;
import com.livery.client.testsupport.PortServer;
import com.livery.client.testsupport.Processes;
import com.livery.client.testsupport.Repo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every case `livery vectors` writes, answered by the Java client as its case.json says, the way the Swift tests
 * check `livery tuf-client` (Tests/LiveryTests/ClientVectorTests.swift): the conformance client's init with the
 * trusted root, then a download of each step's targets, one metadata folder per case, over `python3 -m http.server`.
 * Checked: accept or refuse, the error class (a subclass of the expected one agrees, docs/client-vectors.md), the
 * root version trusted, and the SHA-256 of every target held after an accepted step. A refusal in the install
 * phase is an accept for a TUF client (unpacking is the release layer's).
 */
class ClientVectorTest {
    /** The vocabulary's parent rule: RepositoryError is the parent of the four metadata classes. */
    private static final Map<String, String> PARENT = Map.of("BadSignature", "RepositoryError", "BadVersionNumber", "RepositoryError",
            "ExpiredMetadata", "RepositoryError", "LengthOrHashMismatch", "RepositoryError");

    /** python-tuf's exception names, as the client prints them, mapped to the vocabulary (as the Swift harness maps them). */
    static String vectorClass(String pythonName) {
        switch (pythonName) {
            case "UnsignedMetadataError": return "BadSignature";
            case "BadVersionNumberError": case "EqualVersionNumberError": return "BadVersionNumber";
            case "ExpiredMetadataError": return "ExpiredMetadata";
            case "LengthOrHashMismatchError": return "LengthOrHashMismatch";
            case "DownloadLengthMismatchError": return "DownloadLengthMismatch";
            case "TargetNotFound": return "TargetNotFound";
            case "RepositoryError": case "DeserializationError": return "RepositoryError";
            default: return null;
        }
    }

    @Test
    void answersEveryVectorAsItsCaseSays(@TempDir Path work) throws Exception {
        Path vectors = work.resolve("vectors");
        Processes.Result generated = Processes.run(List.of(Repo.livery().toString(), "vectors", vectors.toString()), null, 120);
        assertEquals(0, generated.status, generated.stderr);
        @SuppressWarnings("unchecked")
        Map<String, Object> index = (Map<String, Object>) Json.parse(Files.readAllBytes(vectors.resolve("index.json")));
        List<String> problems = new ArrayList<>();
        int cases = 0, steps = 0;
        try (PortServer server = PortServer.staticFiles(vectors)) {
            for (Object entry : (List<?>) index.get("cases")) {
                String id = (String) ((Map<?, ?>) entry).get("id");
                steps += runCase(vectors.resolve(id), server.base() + "/" + id, work.resolve("client/" + id), problems);
                cases++;
            }
        }
        assertTrue(cases >= 30, "only " + cases + " cases");
        assertTrue(problems.isEmpty(), "the Java client disagrees with " + problems.size() + " expectation(s) over " + cases + " cases, "
                + steps + " steps:\n" + String.join("\n", problems));
    }

    @SuppressWarnings("unchecked")
    private int runCase(Path folder, String url, Path work, List<String> problems) throws Exception {
        Map<String, Object> vector = (Map<String, Object>) Json.parse(Files.readAllBytes(folder.resolve("case.json")));
        String id = (String) vector.get("id");
        assertEquals(1L, vector.get("schemaVersion"), id + ": unknown case.json schema");
        Path metadata = work.resolve("metadata"), targets = work.resolve("targets");
        Files.createDirectories(targets);
        Outcome init = client("--metadata-dir", metadata.toString(), "init", folder.resolve((String) vector.get("trustedRoot")).toString());
        int count = 0;
        for (Object item : (List<?>) vector.get("steps")) {
            Map<String, Object> step = (Map<String, Object>) item;
            String where = id + " step " + step.get("step") + ": ";
            String repository = url + "/" + step.get("repository");
            List<String> args = new ArrayList<>(List.of("--metadata-dir", metadata.toString(), "--metadata-url", repository + "/metadata",
                    "--target-base-url", repository + "/targets", "--target-dir", targets.toString()));
            for (Object name : (List<?>) step.get("download")) {
                args.add("--target-name");
                args.add((String) name);
            }
            args.add("download");
            Outcome run = init.status != 0 ? init : client(args.toArray(new String[0]));
            boolean installRefusal = "refuse".equals(step.get("expect")) && "install".equals(step.get("phase"));
            boolean mustAccept = "accept".equals(step.get("expect")) || installRefusal;
            String expected = (String) step.get("error");
            if (mustAccept && run.status != 0) {
                problems.add(where + "expected accept, got refuse: " + run.stderr);
            } else if (!mustAccept && run.status == 0) {
                problems.add(where + "expected refuse " + expected + "/" + step.get("phase") + ", got accept");
            } else if (!mustAccept) {
                String reported = run.errorClass();
                if (reported == null) problems.add(where + "refused without saying which error class: " + run.stderr);
                else if (!reported.equals(expected) && !expected.equals(PARENT.get(reported))) {
                    problems.add(where + "expected refuse " + expected + ", got refuse " + reported + ": " + run.stderr);
                }
            }
            long root = (Long) ((Map<String, Object>) ((Map<String, Object>) Json.parse(Files.readAllBytes(metadata.resolve("root.json")))).get("signed")).get("version");
            if (root != (Long) step.get("rootVersion")) problems.add(where + "expected to trust root v" + step.get("rootVersion") + ", trusts v" + root);
            if ("accept".equals(step.get("expect"))) {
                Map<String, String> held = held(targets);
                for (Object h : (List<?>) step.get("holds")) {
                    Map<String, Object> hold = (Map<String, Object>) h;
                    if (!hold.get("sha256").equals(held.get(hold.get("target")))) {
                        problems.add(where + "expected to hold " + hold.get("target") + " " + hold.get("sha256") + ", holds " + held.get(hold.get("target")));
                    }
                }
            }
            count++;
        }
        return count;
    }

    /** Target name → SHA-256 of each file in the target folder (named by the quoted target name). */
    private static Map<String, String> held(Path targets) throws IOException {
        Map<String, String> out = new HashMap<>();
        try (Stream<Path> files = Files.list(targets)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.getFileName().toString().startsWith(".")) continue;
                try {
                    out.put(URLDecoder.decode(file.getFileName().toString(), StandardCharsets.UTF_8),
                            Hex.encode(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
                } catch (java.security.NoSuchAlgorithmException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }

    /** One run of the conformance client, in this JVM (its main only adds System.exit). */
    private static Outcome client(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TufConformanceClient.run(args, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, err.toString(StandardCharsets.UTF_8));
    }

    private static final class Outcome {
        final int status;
        final String stderr;

        Outcome(int status, String stderr) {
            this.status = status;
            this.stderr = stderr.trim();
        }

        /** The vocabulary's class of a failure, read from its {@code tuf-client: <python-tuf name>: …} line. */
        String errorClass() {
            for (String line : stderr.split("\n")) {
                if (!line.startsWith("tuf-client: ")) continue;
                String rest = line.substring("tuf-client: ".length());
                int colon = rest.indexOf(':');
                if (colon > 0) return vectorClass(rest.substring(0, colon));
            }
            return null;
        }
    }
}
