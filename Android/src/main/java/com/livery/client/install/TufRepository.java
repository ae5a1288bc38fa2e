package com.livery.client.install;

import com.livery.client.files.FileErrors;
import com.livery.client.CacheFull;
import com.livery.client.FetchRequest;
import com.livery.client.LiveryException;
import com.livery.client.tuf.MetadataFolder;
import com.livery.client.tuf.TargetFile;
import com.livery.client.tuf.Updater;
import com.livery.client.tuf.UpdaterLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The TUF core's {@link Updater} as the release layer's {@link TrustedRepository}: metadata kept in the cache's {@code metadata/}. */
public final class TufRepository implements TrustedRepository {
    private final Updater updater;
    private final Path scratch;
    private final Map<String, TargetFile> found = new HashMap<>();

    public TufRepository(Updater updater, Path scratch) {
        this.updater = updater;
        this.scratch = scratch;
    }

    /** Opens the Updater over {@code <cache>/metadata} and {@code <repository>/metadata/} and {@code targets/}, with the request's fetcher. */
    public static FetchRequest.TrustOpener opener(Clock clock) {
        return request -> new TufRepository(new Updater(new MetadataFolder(request.cache.resolve("metadata")), request.bootstrapRoot,
                request.repository.base().resolve("metadata/"), request.repository.base().resolve("targets/"), request.repository.fetcher(), clock,
                UpdaterLimits.DEFAULT), request.cache.resolve("downloads"));
    }

    @Override
    public void refresh() throws Exception {
        updater.refresh();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Optional<SignedTarget> target(String name) throws Exception {
        Optional<TargetFile> target = updater.findTarget(name);
        if (target.isEmpty()) return Optional.empty();
        TargetFile t = target.get();
        String sha256 = t.hashes().get("sha256");
        if (sha256 == null) throw new LiveryException(LiveryException.Kind.MALFORMED, "target '" + name + "' has no SHA-256 (Livery's releases always sign one)");
        synchronized (found) {
            found.put(name, t);
        }
        Object custom = t.custom().orElse(null);
        return Optional.of(new SignedTarget(name, t.length(), sha256, custom instanceof Map ? (Map<String, Object>) custom : null));
    }

    @Override
    public byte[] read(SignedTarget target) throws Exception {
        TargetFile t;
        synchronized (found) {
            t = found.get(target.name);
        }
        Path file = scratch.resolve(".target-" + UUID.randomUUID());
        try {
            updater.download(t, file);
            return Files.readAllBytes(file);
        } catch (Exception e) {
            // A full disk names the file it was writing (the download's own error names the URL).
            if (CacheFull.isOutOfSpace(e)) throw FileErrors.naming(file, new java.io.IOException(e.getMessage(), e));
            throw e;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Override
    public int rootVersion() {
        return (int) updater.trustedRootVersion();
    }
}
