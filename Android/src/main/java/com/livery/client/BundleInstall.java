package com.livery.client;

import com.livery.client.files.FileErrors;
import com.livery.client.delta.DeltaBase;
import com.livery.client.delta.DeltaInstall;
import com.livery.client.delta.PreparedDelta;
import com.livery.client.digest.Sha256;
import com.livery.client.extract.ArchiveExtractor;
import com.livery.client.install.PlannedDownload;
import com.livery.client.install.ProgressMeter;
import com.livery.client.install.ProtectedBundles;
import com.livery.client.install.ReleaseCommit;
import com.livery.client.install.WantedBundle;
import com.livery.client.manifest.DownloadManifest;
import com.livery.client.manifest.Selection;
import com.livery.client.voucher.AccessGrant;
import com.livery.client.voucher.AccessTokenStore;
import com.livery.client.voucher.SegmentedAead;
import com.livery.client.voucher.VoucherAccessException;
import com.livery.client.voucher.VoucherClient;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Steps 3 to 7 of a fetch (docs/client.md): room on disk, downloads (several at once, whole or by delta), install into a
 * staging folder (reusing what the installed release has), the switch of {@code current}, and garbage collection.
 */
final class BundleInstall {
    private final FetchRequest request;
    private final DownloadManifest manifest;
    private final byte[] manifestData;
    private final String prefix;
    private final List<String> wanted;
    private final Map<String, WantedBundle> signed;
    private final AccessTokenStore access;
    private final VoucherClient vouchers;
    private final Path installed, cache, downloads;
    private final DownloadManifest installedManifest;
    private final Selection selection;
    private final Set<String> byDelta = ConcurrentHashMap.newKeySet();
    private final Map<String, String> fallbacks = new ConcurrentHashMap<>();
    private final Map<String, byte[]> indexes = new ConcurrentHashMap<>();
    /** When set, a failed download fails the fetch with this said after it, instead of keeping the installed release offline. */
    private String failureHint;
    /** What the plan needed on disk, to download plus to install; -1 before the plan. */
    private volatile long needed = -1;

    BundleInstall(FetchRequest request, DownloadManifest manifest, byte[] manifestData, String prefix, List<String> wanted, Map<String, WantedBundle> signed,
                  AccessTokenStore access, VoucherClient vouchers, Path installed, DownloadManifest installedManifest, Selection selection) {
        this.request = request;
        this.manifest = manifest;
        this.manifestData = manifestData;
        this.prefix = prefix;
        this.wanted = wanted;
        this.signed = signed;
        this.access = access;
        this.vouchers = vouchers;
        this.installed = installed;
        this.installedManifest = installedManifest;
        this.selection = selection;
        this.cache = request.cache;
        this.downloads = cache.resolve("downloads");
    }

    /** The installed release's folder of bundle {@code id} when it has the same bytes (linked, not extracted again), else null. */
    private Path installedCopy(String id) {
        if (installed == null || installedManifest == null) return null;
        DownloadManifest.Bundle b = installedManifest.bundle(id);
        if (b == null || !b.sha256.equals(signed.get(id).sha256)) return null;
        Path folder = installed.resolve("bundles").resolve(id);
        return Files.isDirectory(folder) ? folder : null;
    }

    void failWith(String hint) {
        failureHint = hint;
    }

    long needed() {
        return needed;
    }

    FetchResult run() throws LiveryException {
        long release = manifest.release;
        String releaseName = release + "." + Sha256.hex(manifestData).substring(0, 12);
        // 3. Room on disk, before any download; a changed bundle with a file index comes by delta when that is smaller.
        long needDownload = 0, needInstall = 0;
        List<String> toDownload = new ArrayList<>();
        List<PlannedDownload> planned = new ArrayList<>();
        Map<String, PreparedDelta> deltas = new ConcurrentHashMap<>();
        DeltaBase base = null;
        for (String id : wanted) {
            WantedBundle info = signed.get(id);
            DownloadManifest.Bundle bundle = manifest.bundle(id);
            boolean have = Files.exists(downloads.resolve(info.sha256));
            if (!have && installedCopy(id) == null) {
                toDownload.add(id);
                // Only a bundle of which the installed release has an earlier version (docs/deltas.md step 4).
                if (!request.fullDownloadsOnly && bundle != null && bundle.files != null && bundle.encryption == null && installed != null
                        && Files.isDirectory(installed.resolve("bundles").resolve(id))) {
                    if (base == null) base = new DeltaBase(installed, installedManifest);
                    if (!base.isEmpty()) {
                        try {
                            PreparedDelta delta = DeltaInstall.prepare(bundle, info.sha256, info.length, prefix, request.repository, base, downloads);
                            indexes.put(id, delta.object);
                            if (delta.indexBytes + delta.rangeBytes() < info.length) deltas.put(id, delta);
                        } catch (Exception e) {
                            // No delta: the bundle comes whole (and its index is fetched again after the download).
                        }
                    }
                }
                PreparedDelta delta = deltas.get(id);
                if (delta != null) {
                    needDownload += delta.rangeBytes();
                    planned.add(new PlannedDownload(id, "delta", delta.indexBytes + delta.rangeBytes(), info.length));
                } else {
                    needDownload += info.length;
                    planned.add(new PlannedDownload(id, "full", info.length, info.length));
                }
            }
            if (installedCopy(id) == null && bundle != null) {
                needInstall += (bundle.installSize >= 0 ? bundle.installSize : info.length) + (bundle.encryption == null ? 0 : info.length);
            }
        }
        long available = -1;
        try {
            available = Files.getFileStore(cache).getUsableSpace();
        } catch (IOException ignored) {
            // Unknown free space: the plan says so, and the fetch goes on.
        }
        needed = needDownload + needInstall;
        if (request.listener != null) request.listener.onEvent(FetchEvent.plan(needDownload, needInstall, available, planned));
        if (available >= 0 && available < needDownload + needInstall) {
            throw new InsufficientSpace(request.tenant, release, needDownload, needInstall, available, cache.toString(),
                    installedManifest == null ? -1 : installedManifest.release);
        }

        // 4. Downloads, several at once, each verified before use; protected bundles with their grant.
        List<String> notLinked = new ArrayList<>();
        for (String id : wanted) if (installedCopy(id) == null) notLinked.add(id);
        Map<String, AccessGrant> grants = ProtectedBundles.grants(notLinked, manifest, signed, request, access, vouchers);
        ProgressMeter meter = new ProgressMeter(needDownload, request.listener);
        Path staging = cache.resolve("releases").resolve(".staging-" + UUID.randomUUID());
        try {
            Files.createDirectories(staging.resolve("bundles"));
            final DeltaBase deltaBase = base;
            ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(request.maxConcurrentDownloads, Math.max(1, toDownload.size()))));
            List<Future<?>> futures = new ArrayList<>();
            for (String id : toDownload) {
                futures.add(pool.submit(() -> {
                    downloadOne(id, deltas.get(id), deltaBase, staging, grants.get(id), meter);
                    return null;
                }));
            }
            pool.shutdown();
            for (int i = 0; i < toDownload.size(); i++) {
                String id = toDownload.get(i);
                try {
                    futures.get(i).get();
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof VoucherAccessException) {
                        AccessGrant grant = grants.get(id);
                        if (grant != null) access.remove(grant.subject);
                        throw new LiveryException(LiveryException.Kind.ACCESS, (grant != null ? grant.subject.noun() + " '" + grant.subject.id + "'" : "bundle '" + id + "'") + ": " + cause.getMessage());
                    }
                    if (CacheFull.isOutOfSpace(cause)) throw new LiveryException(LiveryException.Kind.STORAGE, "download of " + signed.get(id).name + " failed: " + ReleaseInstaller.message(cause), cause);
                    String problem = "download of " + signed.get(id).name + " failed: " + ReleaseInstaller.message(cause);
                    if (failureHint != null) throw new LiveryException(LiveryException.Kind.DOWNLOAD, problem + failureHint, cause);
                    return ReleaseInstaller.offline(installed, problem, cause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LiveryException(LiveryException.Kind.DOWNLOAD, "the fetch was interrupted", e);
                }
            }
            List<String> reused = new ArrayList<>();
            for (String id : wanted) if (!toDownload.contains(id)) reused.add(id);

            // 5. Install into the staging folder, then switch `current` in one rename.
            for (String id : wanted) installBundle(id, staging, grants.get(id));
            ReleaseCommit.write(staging.resolve(DownloadManifest.TARGET_NAME), manifestData);
            // Where the bundles came from (`staged/` for a rollout), for bundles added to this release later.
            ReleaseCommit.write(staging.resolve(".prefix"), prefix.getBytes(StandardCharsets.UTF_8));
            ReleaseCommit.write(staging.resolve(".complete"), new byte[0]);
            ReleaseCommit.syncTree(staging);
            ReleaseCommit.commit(staging, releaseName, release, cache, selection);
            String previous = installed == null || installed.getFileName().toString().equals(releaseName) ? null : installed.getFileName().toString();

            // 6. Keep the new and the previous release; remove older ones and unreferenced downloads.
            Set<String> keep = new HashSet<>();
            keep.add(releaseName);
            if (previous != null) keep.add(previous);
            ReleaseCommit.collectGarbage(cache, keep);
            return new FetchResult(release, cache.resolve("releases").resolve(releaseName), toDownload, reused, false, null, null, false,
                    new ArrayList<>(new TreeSet<>(byDelta)), fallbacks, List.of(), needDownload, needInstall);
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, request.tenant + ": cannot install release " + release + ": " + e.getMessage()
                    + (installedManifest != null ? "; release " + installedManifest.release + " stays installed" : ""), e);
        } finally {
            ReleaseCommit.removeTree(staging);
        }
    }

    /** One bundle: by delta straight into the staging folder when prepared (falling back to whole), else whole into downloads/. */
    private void downloadOne(String id, PreparedDelta delta, DeltaBase base, Path staging, AccessGrant grant, ProgressMeter meter) throws Exception {
        WantedBundle info = signed.get(id);
        if (delta != null && base != null) {
            Path folder = staging.resolve("bundles").resolve(id);
            try {
                meter.started(id, delta.rangeBytes());
                DeltaInstall.install(delta, info.path, request.repository, base, folder, downloads, n -> meter.advanced(id, n));
                meter.finished(id);
                byDelta.add(id);
                return;
            } catch (Exception e) {
                ReleaseCommit.removeTree(folder);
                fallbacks.put(id, ReleaseInstaller.message(e));
            }
        }
        downloadWhole(info, grant, meter);
        // A bundle downloaded whole keeps its file index too, so its next update can be a delta.
        DownloadManifest.Bundle bundle = manifest.bundle(id);
        if (!request.fullDownloadsOnly && !indexes.containsKey(id) && bundle != null && bundle.files != null && bundle.encryption == null) {
            try {
                indexes.put(id, DeltaInstall.fetchIndex(bundle, info.sha256, prefix, request.repository, downloads));
            } catch (Exception ignored) {
                // Without it the install goes on; the next update of this bundle is then a full download.
            }
        }
    }

    /** Downloads one bundle into downloads/<sha256>, resuming a partial file, verified before it is renamed into place. */
    private void downloadWhole(WantedBundle info, AccessGrant grant, ProgressMeter meter) throws Exception {
        Path file = downloads.resolve(info.sha256);
        Path part = downloads.resolve(info.sha256 + ".part");
        meter.started(info.id, info.length);
        try {
            boolean found;
            String url = grant == null ? null : grant.url(info.id, info.fileName(), Instant.now());
            if (url != null) {
                URI address = vouchers.base().resolve(url);
                try {
                    found = request.repository.download(info.path, address, part, info.length, null, n -> meter.advanced(info.id, n));
                } catch (VoucherAccessException expired) {
                    // A signed URL that expired mid-way is renewed once, and the download resumes.
                    AccessGrant renewed;
                    synchronized (BundleInstall.class) {
                        renewed = vouchers.renew(grant, access.devicePublicKey());
                        access.save(renewed);
                    }
                    String again = renewed.url(info.id, info.fileName(), Instant.now());
                    if (again == null) throw expired;
                    found = request.repository.download(info.path, vouchers.base().resolve(again), part, info.length, null, n -> meter.advanced(info.id, n));
                }
            } else {
                found = request.repository.download(info.path, null, part, info.length, grant == null ? null : grant.token, n -> meter.advanced(info.id, n));
            }
            if (!found) throw new LiveryException(LiveryException.Kind.DOWNLOAD, info.name + " is missing on the server");
            Sha256.verifyFile(part, info.length, info.sha256, info.name);
            ReleaseCommit.sync(part);
            Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            meter.finished(info.id);
        } catch (Exception e) {
            // A failed or unverified download is deleted, as LiveryClient does, so the next attempt starts from nothing.
            Files.deleteIfExists(part);
            if (CacheFull.isOutOfSpace(e)) {
                throw new LiveryException(LiveryException.Kind.STORAGE, info.name + ": " + ReleaseInstaller.message(e),
                        FileErrors.naming(part, new IOException(ReleaseInstaller.message(e), e)));
            }
            throw e;
        }
    }

    /** One bundle into the staging folder: its file index, then its files by delta (done), by link, or extracted (decrypted first). */
    private void installBundle(String id, Path staging, AccessGrant grant) throws IOException, LiveryException {
        Path folder = staging.resolve("bundles").resolve(id);
        Path indexFile = DeltaBase.indexFile(staging, id);
        Path copy = installedCopy(id);
        if (indexes.containsKey(id)) {
            Files.createDirectories(indexFile.getParent());
            ReleaseCommit.write(indexFile, indexes.get(id));
        } else if (copy != null && Files.exists(DeltaBase.indexFile(installed, id))) {
            Files.createDirectories(indexFile.getParent());
            try {
                Files.createLink(indexFile, DeltaBase.indexFile(installed, id));
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(DeltaBase.indexFile(installed, id), indexFile);
            }
        }
        if (byDelta.contains(id)) return;
        if (copy != null) {
            ReleaseCommit.linkTree(copy, folder);
            return;
        }
        Path archive = downloads.resolve(signed.get(id).sha256);
        DownloadManifest.Bundle bundle = manifest.bundle(id);
        if (bundle == null || bundle.encryption == null) {
            ArchiveExtractor.extract(archive, folder);
            return;
        }
        // Verified ciphertext in, archive out: decrypted beside the downloads, extracted, removed.
        byte[] key = ProtectedBundles.contentKey(id, bundle.encryption, grant, access, request.tenant);
        Path plain = downloads.resolve(".plain-" + UUID.randomUUID());
        try {
            try {
                SegmentedAead.decrypt(archive, plain, key);
            } catch (LiveryException e) {
                throw new LiveryException(LiveryException.Kind.ACCESS, "bundle '" + id + "' does not decrypt: " + e.getMessage(), e);
            }
            ArchiveExtractor.extract(plain, folder);
        } finally {
            Files.deleteIfExists(plain);
        }
    }
}
