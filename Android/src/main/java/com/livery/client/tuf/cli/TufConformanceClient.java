package com.livery.client.tuf.cli;

import com.livery.client.http.TransferPolicy;
import com.livery.client.http.UrlConnectionTransport;
import com.livery.client.tuf.LengthOrHashMismatchException;
import com.livery.client.tuf.MetadataFolder;
import com.livery.client.tuf.RoleNames;
import com.livery.client.tuf.TargetFile;
import com.livery.client.tuf.TufException;
import com.livery.client.tuf.Updater;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The client contract of the TUF conformance suite (its CLIENT-CLI.md; the Swift client's is {@code livery
 * tuf-client}), so the suite and the client vectors can run against this library:
 * <pre>
 *   --metadata-dir DIR init ROOT
 *   --metadata-dir DIR --metadata-url URL refresh
 *   --metadata-dir DIR --metadata-url URL --target-name NAME… --target-base-url URL --target-dir DIR download
 * </pre>
 * Exit 0 on full success, 1 otherwise (2 for a malformed command line). A failure is printed as
 * {@code tuf-client: <python-tuf exception name>: message}, the form test harnesses read the error class from.
 */
public final class TufConformanceClient {
    private String metadataDir;
    private String metadataUrl;
    private final List<String> targetNames = new ArrayList<>();
    private String targetBaseUrl;
    private String targetDir;
    private final List<String> arguments = new ArrayList<>();

    private TufConformanceClient() {}

    public static void main(String[] args) {
        TufConformanceClient client = new TufConformanceClient();
        try {
            client.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("tuf-client: " + e.getMessage());
            System.exit(2);
        }
        try {
            client.run();
        } catch (TufException e) {
            System.err.println("tuf-client: " + e.pythonTufName() + ": " + e.getMessage());
            System.exit(1);
        } catch (IOException | RuntimeException e) {
            System.err.println("tuf-client: " + e);
            System.exit(1);
        }
        System.exit(0);
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                arguments.add(arg);
                continue;
            }
            if (i + 1 >= args.length) throw new IllegalArgumentException(arg + " needs a value");
            String value = args[++i];
            switch (arg) {
                case "--metadata-dir": metadataDir = value; break;
                case "--metadata-url": metadataUrl = value; break;
                case "--target-name": targetNames.add(value); break;
                case "--target-base-url": targetBaseUrl = value; break;
                case "--target-dir": targetDir = value; break;
                default: throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (metadataDir == null) throw new IllegalArgumentException("--metadata-dir is required");
        if (arguments.isEmpty()) throw new IllegalArgumentException("a command is required: init, refresh or download");
    }

    private void run() throws TufException, IOException {
        Path folder = Path.of(metadataDir);
        switch (arguments.get(0)) {
            case "init": {
                // The contract asks for no checks here: every refresh verifies the trusted root.
                if (arguments.size() < 2) throw new IllegalArgumentException("init needs the trusted root file");
                new MetadataFolder(folder).save("root", Files.readAllBytes(Path.of(arguments.get(1))));
                break;
            }
            case "refresh":
                updater(folder).refresh();
                break;
            case "download": {
                if (targetBaseUrl == null || targetDir == null) throw new IllegalArgumentException("download needs --target-base-url and --target-dir");
                Updater updater = updater(folder);
                updater.refresh();
                Path directory = Path.of(targetDir);
                Files.createDirectories(directory);
                for (String name : targetNames) {
                    TargetFile target = updater.requireTarget(name);
                    // Named as python-tuf names downloads: the target path quoted, '/' included.
                    Path destination = directory.resolve(RoleNames.quoted(name));
                    if (alreadyHeld(target, destination)) continue;
                    updater.download(target, destination);
                }
                break;
            }
            default:
                throw new IllegalArgumentException("unknown command '" + arguments.get(0) + "': use init, refresh or download");
        }
    }

    /** The contract's caching: a target downloaded before with matching length and hashes is not fetched again. */
    private static boolean alreadyHeld(TargetFile target, Path destination) throws IOException {
        if (!Files.isRegularFile(destination)) return false;
        try {
            target.file().verify(destination, target.path());
            return true;
        } catch (LengthOrHashMismatchException e) {
            return false;
        }
    }

    private Updater updater(Path folder) throws TufException {
        if (metadataUrl == null) throw new IllegalArgumentException("--metadata-url is required");
        URI targets = targetBaseUrl == null ? null : URI.create(targetBaseUrl);
        TransferPolicy policy = TransferPolicy.STANDARD;
        return new Updater(folder, URI.create(metadataUrl), targets, new UrlConnectionTransport(policy), policy, Clock.systemUTC());
    }
}
