package com.livery.client;

import com.livery.client.digest.Sha256;
import com.livery.client.install.SignedTarget;
import com.livery.client.install.TrustedRepository;
import com.livery.client.install.WantedBundle;
import com.livery.client.manifest.BundleChoice;
import com.livery.client.manifest.ClientVersion;
import com.livery.client.manifest.DownloadManifest;
import com.livery.client.manifest.RolloutBucket;
import com.livery.client.manifest.Selection;
import com.livery.client.voucher.AccessTokenStore;
import com.livery.client.voucher.VoucherClient;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The client's install step, with the same behaviour as LiveryClient's {@code ReleaseInstaller} (docs/client.md):
 * refresh the TUF metadata, read the download manifest, choose the bundles, download what is missing (whole or by
 * delta, several at once, each verified before use), extract safely, and switch {@code current} in one rename. When the
 * server cannot be reached or what it sends does not verify, the installed release stays and the result says offline.
 * Blocking: call it off the main thread.
 */
public final class ReleaseInstaller {
    private ReleaseInstaller() {}

    /**
     * Runs the whole fetch; throws when nothing usable is installed (or the request itself cannot be met). A disk that
     * fills up part-way throws {@link CacheFull}, whatever was being written: never an offline keep.
     */
    public static FetchResult fetch(FetchRequest request) throws LiveryException {
        // An app's first start: its embedded release, if it ships one, before anything else.
        String seeding = request.embeddedRelease != null && !request.changesInstalledRelease() ? EmbeddedRelease.seed(request, request.embeddedRelease) : null;
        try {
            return fetchOrKeep(request);
        } catch (LiveryException | RuntimeException e) {
            if (CacheFull.isOutOfSpace(e)) throw cacheFull(request, e, -1);
            if (seeding != null) {
                throw new LiveryException(e instanceof LiveryException ? ((LiveryException) e).kind() : LiveryException.Kind.REFRESH,
                        message(e) + " (and " + seeding + ")", e);
            }
            throw e;
        }
    }

    /** {@code error}, a write that found the cache's disk full, as the {@link CacheFull} the app is given. */
    static CacheFull cacheFull(FetchRequest request, Throwable error, long needed) {
        long available = -1;
        try {
            available = Files.getFileStore(request.cache).getUsableSpace();
        } catch (IOException ignored) {
            // Unknown: the message says '?'.
        }
        DownloadManifest kept = manifestOf(installedRelease(request.cache));
        return new CacheFull(request.tenant, request.cache, available, needed, CacheFull.writing(error, request.cache), kept == null ? -1 : kept.release, error);
    }

    @SuppressWarnings("try")
    static FetchResult fetchOrKeep(FetchRequest request) throws LiveryException {
        Path cache = request.cache;
        try {
            for (String folder : List.of("metadata", "downloads", "releases")) Files.createDirectories(cache.resolve(folder));
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot create the cache " + cache + ": " + e.getMessage(), e);
        }
        // One fetch at a time per cache: a second one waits for the lock.
        try (FileChannel lockFile = FileChannel.open(cache.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = lockFile.lock()) {
            FetchResult result = fetchLocked(request);
            if (request.listener != null) request.listener.onEvent(FetchEvent.installed(result));
            return result;
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot lock " + cache + ": " + e.getMessage(), e);
        }
    }

    /** The installed release's folder, or null. */
    static Path installedRelease(Path cache) {
        Path current = cache.resolve("current");
        try {
            return Files.isSymbolicLink(current) ? cache.resolve(Files.readSymbolicLink(current)) : null;
        } catch (IOException e) {
            return null;
        }
    }

    static DownloadManifest manifestOf(Path release) {
        if (release == null) return null;
        try {
            return DownloadManifest.parse(Files.readAllBytes(release.resolve(DownloadManifest.TARGET_NAME)));
        } catch (Exception e) {
            return null;
        }
    }

    private static FetchResult fetchLocked(FetchRequest request) throws LiveryException {
        Path cache = request.cache;
        Path installed = installedRelease(cache);
        AccessTokenStore access = new AccessTokenStore(cache);
        VoucherClient vouchers = new VoucherClient(request.voucherServer != null ? request.voucherServer : request.repository.base(), request.repository.fetcher());
        // Vouchers first: a code that does not redeem fails the fetch before anything changes.
        for (String code : request.vouchers) access.save(vouchers.redeem(code, access.deviceId(), access.devicePublicKey()));

        // Adding to or removing from the installed release: no update, no refresh.
        if (request.changesInstalledRelease() && installed != null) {
            byte[] installedData = null;
            try {
                installedData = Files.readAllBytes(installed.resolve(DownloadManifest.TARGET_NAME));
            } catch (IOException ignored) {
                // Unreadable: a whole fetch below.
            }
            DownloadManifest installedManifest = manifestOf(installed);
            if (installedData != null && installedManifest != null) return change(request, installed, installedManifest, installedData, access, vouchers);
        }

        if (!Files.exists(cache.resolve("metadata").resolve("root.json")) && request.bootstrapRoot == null) {
            throw new LiveryException(LiveryException.Kind.REQUEST, "no trusted root: pass the tenant's 1.root.json on first use");
        }
        TrustedRepository trusted;
        byte[] manifestData;
        String prefix = "";
        try {
            trusted = request.trust.open(request);
            trusted.refresh();
            SignedTarget manifestTarget = trusted.target(DownloadManifest.TARGET_NAME)
                    .orElseThrow(() -> new LiveryException(LiveryException.Kind.REFRESH, "the release has no signed download manifest"));
            Optional<SignedTarget> staged = trusted.target(RolloutBucket.STAGED_PREFIX + DownloadManifest.TARGET_NAME);
            if (request.takesStagedRelease && staged.isPresent() && takesStaged(staged.get(), request, access)) {
                manifestTarget = staged.get();
                prefix = RolloutBucket.STAGED_PREFIX;
            }
            manifestData = trusted.read(manifestTarget);
        } catch (Exception e) {
            return offline(installed, "refresh failed: " + message(e), e);
        }

        DownloadManifest manifest = DownloadManifest.parse(manifestData);
        long release = manifest.release;
        DownloadManifest kept = manifestOf(installed);
        // Never back to an older release: after a halted rollout, an install that took the staged release keeps it.
        if (kept != null && kept.release > release) {
            return new FetchResult(kept.release, installed, List.of(), List.of(), false,
                    "the channel offers release " + release + ", older than the installed release " + kept.release + " (a halted rollout); keeping " + kept.release,
                    null, false, List.of(), Map.of(), List.of(), 0, 0);
        }
        Selection remembered = Selection.load(cache).applying(request.addTours, request.removeTours, request.addPrograms, request.removePrograms);
        List<String> tours = new ArrayList<>(request.tours), programs = new ArrayList<>(request.programs);
        tours.addAll(request.addTours);
        programs.addAll(request.addPrograms);
        BundleChoice choice = BundleChoice.choose(manifest, request.locale, tours, programs, remembered);
        List<String> wanted = choice.wanted;
        if (request.appVersion != null) checkAppVersion(request.appVersion, manifest, wanted, kept == null ? -1 : kept.release);
        // Delegated roles are loaded only as far as the search for these bundles needs (§5.6.7).
        Map<String, WantedBundle> signed = new LinkedHashMap<>();
        try {
            for (String id : wanted) {
                String name = prefix + id + "." + manifest.format;
                SignedTarget info = trusted.target(name)
                        .orElseThrow(() -> new LiveryException(LiveryException.Kind.REFRESH, "bundle '" + id + "' is not a signed target"));
                signed.put(id, new WantedBundle(id, name, info.length, info.sha256, "targets/" + prefix + info.sha256 + "." + id + "." + manifest.format));
            }
        } catch (Exception e) {
            return offline(installed, "refresh failed: " + message(e), e);
        }
        String releaseName = release + "." + Sha256.hex(manifestData).substring(0, 12);
        Path target = cache.resolve("releases").resolve(releaseName);
        if (installed != null && installed.normalize().equals(target.normalize()) && Files.exists(target.resolve(".complete")) && holdsExactly(target, wanted)) {
            return new FetchResult(release, target, List.of(), wanted, false, null, null, !prefix.isEmpty(), List.of(), Map.of(), choice.notes, 0, 0);
        }
        BundleInstall install = new BundleInstall(request, manifest, manifestData, prefix, wanted, signed, access, vouchers, installed, kept, remembered);
        try {
            return install.run().withNotes(choice.notes, !prefix.isEmpty());
        } catch (LiveryException | RuntimeException e) {
            if (CacheFull.isOutOfSpace(e)) throw cacheFull(request, e, install.needed());
            throw e;
        }
    }

    /**
     * Adds bundles to the installed release, or removes optional ones, without updating it (docs/client.md, "Adding and
     * removing tours and programs"): the bundles are the installed manifest's, verified when it was installed; the
     * others are linked from the installed tree, not downloaded or extracted again.
     */
    private static FetchResult change(FetchRequest request, Path installed, DownloadManifest manifest, byte[] manifestData, AccessTokenStore access,
                                      VoucherClient vouchers) throws LiveryException {
        Selection remembered = Selection.load(request.cache).applying(request.addTours, request.removeTours, request.addPrograms, request.removePrograms);
        List<String> tours = new ArrayList<>(request.tours), programs = new ArrayList<>(request.programs);
        tours.addAll(request.addTours);
        programs.addAll(request.addPrograms);
        BundleChoice choice = BundleChoice.choose(manifest, request.locale, tours, programs, remembered);
        if (request.appVersion != null) checkAppVersion(request.appVersion, manifest, choice.wanted, manifest.release);
        String prefix = "";
        try {
            if (Files.exists(installed.resolve(".prefix"))) prefix = Files.readString(installed.resolve(".prefix"));
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot read " + installed.resolve(".prefix") + ": " + e.getMessage(), e);
        }
        Map<String, WantedBundle> signed = new LinkedHashMap<>();
        for (String id : choice.wanted) {
            DownloadManifest.Bundle bundle = manifest.bundle(id);
            if (bundle == null) continue;
            String name = bundle.targetName(manifest.format);
            signed.put(id, new WantedBundle(id, prefix + name, bundle.size, bundle.sha256, "targets/" + prefix + bundle.sha256 + "." + name));
        }
        BundleInstall install = new BundleInstall(request, manifest, manifestData, prefix, choice.wanted, signed, access, vouchers, installed, manifest, remembered);
        // A download that fails is no offline case here: the installed release may be gone from the server.
        install.failWith(" (the installed release " + manifest.release + " may no longer be on the server: fetch the current release first)");
        try {
            return install.run().withNotes(choice.notes, !prefix.isEmpty());
        } catch (LiveryException | RuntimeException e) {
            if (CacheFull.isOutOfSpace(e)) throw cacheFull(request, e, install.needed());
            throw e;
        }
    }

    private static boolean holdsExactly(Path release, List<String> wanted) {
        try (Stream<Path> names = Files.list(release.resolve("bundles"))) {
            return names.count() == wanted.size() && wanted.stream().allMatch(id -> Files.isDirectory(release.resolve("bundles").resolve(id), LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean takesStaged(SignedTarget staged, FetchRequest request, AccessTokenStore access) throws LiveryException {
        Object rollout = staged.custom.get("rollout");
        Object number = staged.custom.get("release");
        if (!(rollout instanceof Map) || !(number instanceof Long)) return false;
        Object points = ((Map<?, ?>) rollout).get("basisPoints");
        if (!(points instanceof Long) || (Long) points < 1 || (Long) points >= RolloutBucket.SCALE) return false;
        String installId = request.installId != null ? request.installId : access.deviceId();
        return RolloutBucket.takesStaged(request.tenant, request.channel, (Long) number, installId, (int) (long) (Long) points);
    }

    /** The installed release kept for offline use, or the failure when there is none. */
    static FetchResult offline(Path installed, String problem, Throwable cause) throws LiveryException {
        // A full disk is not a network problem to sit out offline: the fetch fails, and says so (CacheFull, above).
        if (CacheFull.isOutOfSpace(cause)) throw new LiveryException(LiveryException.Kind.STORAGE, problem, cause);
        DownloadManifest manifest = manifestOf(installed);
        if (manifest == null) {
            if (cause instanceof LiveryException && !(cause.getMessage() != null && problem.equals(cause.getMessage()))) {
                throw new LiveryException(((LiveryException) cause).kind(), problem, cause);
            }
            throw new LiveryException(LiveryException.Kind.REFRESH, problem, cause);
        }
        return new FetchResult(manifest.release, installed, List.of(), List.of(), true, problem, cause, false, List.of(), Map.of(), List.of(), 0, 0);
    }

    static String message(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Throws {@link AppUpdateRequired} when the release, or a wanted bundle, needs a newer app than {@code app}. */
    public static void checkAppVersion(ClientVersion app, DownloadManifest manifest, List<String> wanted, long kept) throws LiveryException {
        ClientVersion release = required(manifest.minimumClientVersion, "the release's");
        if (app.compareTo(release) < 0) throw new AppUpdateRequired(manifest.tenant, manifest.release, List.of(), release, app, kept);
        List<String> needing = new ArrayList<>();
        ClientVersion highest = null;
        for (String id : wanted) {
            DownloadManifest.Bundle b = manifest.bundle(id);
            if (b == null) continue;
            ClientVersion v = required(b.minimumClientVersion, "bundle '" + id + "'");
            if (app.compareTo(v) < 0) {
                needing.add(id);
                if (highest == null || v.compareTo(highest) > 0) highest = v;
            }
        }
        if (!needing.isEmpty()) throw new AppUpdateRequired(manifest.tenant, manifest.release, needing, highest, app, kept);
    }

    private static ClientVersion required(String text, String what) throws LiveryException {
        ClientVersion v = ClientVersion.parse(text);
        if (v == null) throw new LiveryException(LiveryException.Kind.MALFORMED, DownloadManifest.TARGET_NAME + ": " + what + " minimumClientVersion '" + text + "' is not X.Y.Z");
        return v;
    }
}
