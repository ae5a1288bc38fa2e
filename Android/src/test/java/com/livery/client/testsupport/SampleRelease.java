package com.livery.client.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.TransferPolicy;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The end-to-end tests' start: the sample tenant sonic-walkscape copied into a work folder and built by
 * {@code livery build}, served by {@code livery serve}, installed by the Java client into {@code java-cache} and by
 * {@code livery fetch} into {@code swift-cache}, and the two installed trees compared.
 */
public final class SampleRelease {
    public static final String TENANT = "sonic-walkscape";
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

    public final Path work;
    public final Path livery;

    private SampleRelease(Path work) {
        this.work = work;
        this.livery = Repo.livery();
    }

    /** sonic-walkscape copied into {@code work}, not yet built. */
    public static SampleRelease copied(Path work) throws IOException {
        copyTree(Repo.root().resolve("Tenants/" + TENANT), work.resolve("Tenants/" + TENANT));
        return new SampleRelease(work);
    }

    /** Every sample tenant copied into {@code work}, not yet built. */
    public static SampleRelease everyTenantCopied(Path work) throws IOException {
        copyTree(Repo.root().resolve("Tenants"), work.resolve("Tenants"));
        return new SampleRelease(work);
    }

    /** Runs {@code livery ARGS} in the work folder and returns what it printed. */
    public String livery(String... args) throws IOException, InterruptedException {
        return livery(Map.of(), args);
    }

    public String livery(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(livery.toString()));
        command.addAll(List.of(args));
        return LiveryTool.run(work, environment, command.toArray(new String[0]));
    }

    /** {@code livery serve --port 0 MORE} in {@code folder} (the work folder unless given). */
    public LiveryTool.Server serve(String... more) throws IOException {
        return serve(work, Map.of(), more);
    }

    public LiveryTool.Server serve(Path folder, Map<String, String> environment, String... more) throws IOException {
        List<String> command = new ArrayList<>(List.of(livery.toString(), "serve", "--port", "0"));
        command.addAll(List.of(more));
        return LiveryTool.start(folder, environment, LISTENING, command.toArray(new String[0]));
    }

    /** The first root of the built release, which both clients start from. */
    public Path root() {
        return work.resolve("Output/" + TENANT + "/metadata/1.root.json");
    }

    public Path javaCache() { return work.resolve("java-cache/" + TENANT); }

    public Path swiftCache() { return work.resolve("swift-cache/" + TENANT); }

    /** The next release's one-file change: a French audio file of the Florence tour replaced by the {@code language} one. */
    public void changeFrenchAudio(String language) throws IOException {
        Path audio = work.resolve("Tenants/" + TENANT + "/tours/florence-renaissance/audio");
        Files.copy(audio.resolve(language + "/03-signoria.mp3"), audio.resolve("fr/03-signoria.mp3"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** A French fetch of sonic-walkscape from {@code server} into {@code cache}, trusting {@code root}: the caller sets the rest. */
    public static FetchRequest request(String server, Path cache, Path root) throws IOException {
        FetchRequest request = new FetchRequest(TENANT, new RepositoryHttp(URI.create(server + "/" + TENANT + "/"), new HttpFetcher(TransferPolicy.STANDARD)),
                cache, TufRepository.opener(Clock.systemUTC()));
        request.bootstrapRoot = Files.readAllBytes(root);
        request.locale = "fr";
        return request;
    }

    /** {@code livery fetch sonic-walkscape --server SERVER --cache swift-cache MORE}. */
    public void liveryFetch(String server, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("fetch", TENANT, "--server", server, "--cache", "swift-cache"));
        args.addAll(List.of(more));
        livery(args.toArray(new String[0]));
    }

    /** The Java client's installed tree is byte-identical to livery fetch's, under the same release link. */
    public void assertSameInstalledTrees() throws IOException {
        Map<String, String> java = LiveryTool.treeDigests(javaCache().resolve("current"));
        assertTrue(java.size() > 20, "the installed tree holds " + java.size() + " files");
        assertEquals(LiveryTool.treeDigests(swiftCache().resolve("current")), java);
        assertEquals(Files.readSymbolicLink(swiftCache().resolve("current")), Files.readSymbolicLink(javaCache().resolve("current")));
    }

    /** The built target files whose names end with {@code suffix}, sorted. */
    public List<Path> targets(String suffix) throws IOException {
        try (Stream<Path> files = Files.list(work.resolve("Output/" + TENANT + "/targets"))) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().collect(Collectors.toList());
        }
    }

    /** The names in {@code folder}, sorted. */
    public static List<String> names(Path folder) throws IOException {
        try (Stream<Path> all = Files.list(folder)) {
            return all.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** How often {@code what} stands in {@code text} (requests in a server's log). */
    public static int occurrences(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) n++;
        return n;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.copy(p, target);
            }
        }
    }
}
