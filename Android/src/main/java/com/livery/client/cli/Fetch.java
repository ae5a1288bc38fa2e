package com.livery.client.cli;

import com.livery.client.AppUpdateRequired;
import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.LiveryException;
import com.livery.client.ReleaseInstaller;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.TransferPolicy;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import com.livery.client.manifest.ClientVersion;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code livery fetch} in Java, for tests and benchmarks: the same arguments, summary line and exit statuses (0
 * installed or kept offline, 1 failed, 2 usage, 3 app too old). A thin front end: parse, call the library, print.
 */
public final class Fetch {
    private Fetch() {}

    static final String USAGE = "usage: livery-fetch-java <tenant> --server URL [--cache DIR] [--root FILE] [--locale L] [--program ID ...] [--tour ID ...]\n"
            + "       [--voucher CODE ...] [--voucher-server URL] [--app-version X.Y.Z] [--channel NAME] [--install-id ID] [--no-delta] [--parallel N]\n"
            + "       [--add-tour ID ...] [--remove-tour ID ...] [--add-program ID ...] [--remove-program ID ...] [--embedded DIR] [--progress json]";

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        String tenant = null, server = null, cache = ".livery-cache", root = null, locale = null, voucherServer = null, appVersion = null;
        String channel = "stable", installId = null, progress = null;
        List<String> programs = new ArrayList<>(), tours = new ArrayList<>(), vouchers = new ArrayList<>();
        List<String> addTours = new ArrayList<>(), removeTours = new ArrayList<>(), addPrograms = new ArrayList<>(), removePrograms = new ArrayList<>();
        String embedded = null;
        boolean noDelta = false;
        int parallel = 4;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--server": server = args[++i]; break;
                    case "--cache": cache = args[++i]; break;
                    case "--root": root = args[++i]; break;
                    case "--locale": locale = args[++i]; break;
                    case "--program": programs.add(args[++i]); break;
                    case "--tour": tours.add(args[++i]); break;
                    case "--voucher": vouchers.add(args[++i]); break;
                    case "--add-tour": addTours.add(args[++i]); break;
                    case "--remove-tour": removeTours.add(args[++i]); break;
                    case "--add-program": addPrograms.add(args[++i]); break;
                    case "--remove-program": removePrograms.add(args[++i]); break;
                    case "--embedded": embedded = args[++i]; break;
                    case "--voucher-server": voucherServer = args[++i]; break;
                    case "--app-version": appVersion = args[++i]; break;
                    case "--channel": channel = args[++i]; break;
                    case "--install-id": installId = args[++i]; break;
                    case "--progress": progress = args[++i]; break;
                    case "--parallel": parallel = Integer.parseInt(args[++i]); break;
                    case "--no-delta": noDelta = true; break;
                    case "-h": case "--help": System.out.println(USAGE); return 0;
                    default:
                        if (a.startsWith("-") || tenant != null) return usage("unexpected argument '" + a + "'");
                        tenant = a;
                }
            }
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            return usage("an option is missing its value");
        }
        if (tenant == null) return usage("the tenant is missing");
        if (server == null || !(server.startsWith("http://") || server.startsWith("https://"))) return usage("--server must be an http(s) URL");
        ClientVersion app = null;
        if (appVersion != null && (app = ClientVersion.parse(appVersion)) == null) return usage("--app-version must be X.Y.Z");
        String base = server.replaceAll("/+$", "") + "/" + tenant + (channel.equals("stable") ? "" : "/channels/" + channel) + "/";
        HttpFetcher http = new HttpFetcher(TransferPolicy.STANDARD);
        Path cacheFolder = Path.of(cache).toAbsolutePath().resolve(channel.equals("stable") ? tenant : tenant + "." + channel);
        FetchRequest request = new FetchRequest(tenant, new RepositoryHttp(URI.create(base), http), cacheFolder, TufRepository.opener(Clock.systemUTC()));
        try {
            if (root != null && !Files.exists(cacheFolder.resolve("metadata").resolve("root.json"))) request.bootstrapRoot = Files.readAllBytes(Path.of(root));
        } catch (java.io.IOException e) {
            System.err.println("fetch failed: cannot read " + root + ": " + e.getMessage());
            return 1;
        }
        request.locale = locale;
        request.programs = programs;
        request.tours = tours;
        request.vouchers = vouchers;
        request.addTours = addTours;
        request.removeTours = removeTours;
        request.addPrograms = addPrograms;
        request.removePrograms = removePrograms;
        if (embedded != null) request.embeddedRelease = Path.of(embedded);
        request.voucherServer = voucherServer == null ? null : URI.create(voucherServer.replaceAll("/+$", "") + "/" + tenant + "/");
        request.appVersion = app;
        request.channel = channel;
        request.installId = installId;
        request.fullDownloadsOnly = noDelta;
        request.maxConcurrentDownloads = parallel;
        if ("json".equals(progress)) request.listener = event -> {
            synchronized (System.out) {
                System.out.println(event.json());
            }
        };
        try {
            FetchResult result = ReleaseInstaller.fetch(request);
            for (String note : result.notes) System.err.println("warning: " + note);
            if (result.offline) {
                System.err.println("warning: " + result.problem + "; keeping release " + result.release + " for offline use");
                if (progress == null) System.out.println(tenant + ": release " + result.release + " kept at " + result.installed + " (not updated); " + http.bytesReceived() + " bytes received");
                return 0;
            }
            if (result.problem != null) System.err.println("note: " + result.problem);
            for (var fallback : result.deltaFallbacks.entrySet()) System.err.println("note: " + fallback.getKey() + " came whole: its delta was refused (" + fallback.getValue() + ")");
            if (progress == null) {
                int n = result.downloaded.size();
                System.out.println(tenant + ": release " + result.release + " installed at " + result.installed + "; downloaded " + n + " bundle" + (n == 1 ? "" : "s")
                        + (n > 0 ? " (" + String.join(", ", result.downloaded) + ")" : "") + ", reused " + result.reused.size()
                        + (result.deltas.isEmpty() ? "" : "; by delta: " + String.join(", ", result.deltas)) + "; " + http.bytesReceived() + " bytes received");
            }
            return 0;
        } catch (AppUpdateRequired e) {
            System.err.println("fetch refused: " + e.getMessage());
            return 3;
        } catch (LiveryException e) {
            System.err.println((e instanceof com.livery.client.InsufficientSpace ? "fetch refused: " : "fetch failed: ") + e.getMessage());
            return 1;
        }
    }

    private static int usage(String message) {
        System.err.println("Error: " + message);
        System.err.println(USAGE);
        return 2;
    }
}
