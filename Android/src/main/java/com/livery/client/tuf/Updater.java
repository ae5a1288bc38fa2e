package com.livery.client.tuf;

import com.livery.client.http.BodyTooLongException;
import com.livery.client.http.HttpAnswer;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.HttpRequest;
import com.livery.client.http.TransferException;
import com.livery.client.http.TransferPolicy;
import com.livery.client.http.Transport;
import com.livery.client.http.Urls;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The TUF client workflow (specification 1.0.x, §5.2–5.7) around {@link TrustedMetadataSet}: it fetches each file
 * over an {@link HttpFetcher} within TUF's length limits, hands it to the set, and keeps what the set trusts as soon
 * as it is trusted, so a refresh that fails part-way still keeps the newer root it walked to. Delegated targets roles
 * are loaded only when a target search needs them (§5.6.7). python-tuf's {@code ngclient.Updater} is the model.
 *
 * <p>Not thread-safe: one updater serves one thread at a time.
 */
public final class Updater {
    private final MetadataStore store;
    private final URI metadataBase;
    private final URI targetsBase;
    private final HttpFetcher fetcher;
    private final Clock clock;
    private final UpdaterLimits limits;
    private TrustedMetadataSet trusted;
    private boolean refreshed;

    /**
     * An updater over the metadata kept in {@code metadataDir}, which must hold a trusted {@code root.json} from an
     * earlier run (or use the constructor that takes the root an app ships).
     */
    public Updater(Path metadataDir, URI metadataBase, URI targetsBase, Transport transport, TransferPolicy policy, Clock clock) throws TufException {
        this(new MetadataFolder(metadataDir), null, metadataBase, targetsBase, new HttpFetcher(transport, policy), clock, UpdaterLimits.DEFAULT);
    }

    /** A first run: {@code trustedRoot} (the root an app ships) is trusted when {@code metadataDir} holds no root yet. */
    public Updater(Path metadataDir, byte[] trustedRoot, URI metadataBase, URI targetsBase, Transport transport, TransferPolicy policy, Clock clock)
            throws TufException {
        this(new MetadataFolder(metadataDir), trustedRoot, metadataBase, targetsBase, new HttpFetcher(transport, policy), clock, UpdaterLimits.DEFAULT);
    }

    /** The general form: any store, any fetcher, own limits. {@code bootstrapRoot} may be null. */
    public Updater(MetadataStore store, byte[] bootstrapRoot, URI metadataBase, URI targetsBase, HttpFetcher fetcher, Clock clock, UpdaterLimits limits)
            throws TufException {
        this.store = Objects.requireNonNull(store, "store");
        this.metadataBase = Objects.requireNonNull(metadataBase, "metadataBase");
        this.targetsBase = targetsBase;
        this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.limits = Objects.requireNonNull(limits, "limits");
        Optional<byte[]> kept = store.load(Root.TYPE);
        if (kept.isEmpty() && bootstrapRoot == null) throw new StorageException("no trusted root: the metadata folder holds no root.json and none was given");
        trusted = new TrustedMetadataSet(kept.orElse(bootstrapRoot), clock.instant());
        if (kept.isEmpty()) store.save(Root.TYPE, bootstrapRoot);
    }

    /**
     * Brings the top-level metadata up to date: every new root version, then timestamp, snapshot and targets. Each
     * refresh starts again from the kept files and the clock's current time.
     */
    public void refresh() throws TufException {
        refreshed = false;
        trusted = new TrustedMetadataSet(store.load(Root.TYPE).orElseThrow(() -> new StorageException("the trusted root.json is gone")), clock.instant());
        loadRoot();
        loadTimestamp();
        loadSnapshot();
        loadTargets(Targets.TYPE, null);
        refreshed = true;
    }

    /** The root version trusted now (after a refresh, the newest one it verified, even if the refresh failed later). */
    public long trustedRootVersion() { return trusted.root().signed().version(); }

    /** The trusted metadata (for reading, e.g. the top-level targets' {@code custom} fields). */
    public TrustedMetadataSet trustedSet() { return trusted; }

    /** The verified top-level targets metadata, refreshing first if needed. */
    public Targets targetsMetadata() throws TufException {
        if (!refreshed) refresh();
        return trusted.targets().get(Targets.TYPE).signed();
    }

    /**
     * §5.6.7: the target {@code path} as the first role that may sign it lists it, refreshing first if needed: top-level
     * targets, then delegated roles depth first in listed order, only through roles whose paths match, stopping at a
     * matching terminating role, at most {@link UpdaterLimits#maxDelegations()} roles. Empty when no role vouches for it.
     */
    public Optional<TargetFile> findTarget(String path) throws TufException {
        if (!refreshed) refresh();
        Deque<String[]> toVisit = new ArrayDeque<>();
        toVisit.push(new String[] {Targets.TYPE, null});
        Set<String> visited = new HashSet<>();
        int budget = limits.maxDelegations();
        while (budget > 0 && !toVisit.isEmpty()) {
            String[] next = toVisit.pop();
            String role = next[0], delegator = next[1];
            if (visited.contains(role)) continue;
            Targets targets = loadTargets(role, delegator);
            TargetFile target = targets.targets().get(path);
            if (target != null) return Optional.of(target);
            visited.add(role);
            budget -= 1;
            if (targets.delegations().isEmpty()) continue;
            List<String[]> children = new ArrayList<>();
            for (DelegatedRole child : targets.delegations().get().roles()) {
                if (!child.isDelegatedPath(path)) continue;
                children.add(new String[] {child.name(), role});
                if (child.terminating()) {
                    toVisit.clear();
                    break;
                }
            }
            Collections.reverse(children);
            for (String[] child : children) toVisit.push(child);
        }
        return Optional.empty();
    }

    /** {@link #findTarget}, or {@link TargetNotFoundException}. */
    public TargetFile requireTarget(String path) throws TufException {
        return findTarget(path).orElseThrow(() -> new TargetNotFoundException("'" + path + "' is not a target any trusted role vouches for"));
    }

    /** Downloads {@code target} to {@code destination}, verified against its signed length and hashes. */
    public void download(TargetFile target, Path destination) throws TufException {
        download(target, destination, null);
    }

    /**
     * Downloads {@code target} into {@code destination}: streamed to a {@code .part} file beside it (continuing a
     * partial one with a range request), read no further than the signed length, checked against the signed hashes,
     * then renamed into place. {@code progress} (may be null) hears the bytes held so far.
     */
    public void download(TargetFile target, Path destination, LongConsumer progress) throws TufException {
        if (targetsBase == null) throw new IllegalStateException("this updater has no targets URL");
        Path folder = destination.toAbsolutePath().getParent();
        Path partial = folder.resolve("." + destination.getFileName() + ".part");
        URI uri = Urls.join(targetsBase, RoleNames.targetPath(target, trusted.root().signed().consistentSnapshot()));
        String what = "'" + target.path() + "'";
        try {
            Files.createDirectories(folder);
            HttpAnswer answer;
            try {
                answer = fetcher.download(HttpRequest.get(uri), partial, target.length(), progress);
            } catch (BodyTooLongException e) {
                Files.deleteIfExists(partial);
                throw new DownloadLengthMismatchException(e.getMessage(), e);
            } catch (TransferException e) {
                throw new DownloadException(e.getMessage(), e);
            }
            if (!answer.isSuccess() && !(answer.status() == 416 && Files.size(partial) == target.length())) {
                throw new DownloadHttpException(what + ": HTTP " + answer.status() + " from " + Urls.shown(uri), answer.status());
            }
            try {
                target.file().verify(partial, what);
            } catch (LengthOrHashMismatchException e) {
                Files.deleteIfExists(partial);
                throw e;
            }
            Files.move(partial, destination, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            MetadataFolder.syncFolder(folder);
        } catch (IOException e) {
            throw new StorageException("cannot write " + destination + ": " + e.getMessage(), e);
        }
    }

    /** §5.3: every next root version, until the repository has none (404 or 403). */
    private void loadRoot() throws TufException {
        for (int i = 0; i < limits.maxRootRotations(); i++) {
            long next = trusted.root().signed().version() + 1;
            Optional<byte[]> data = fetchMetadata(RoleNames.metadataPath(Root.TYPE, next), limits.root(), true);
            if (data.isEmpty()) return;
            trusted.updateRoot(data.get());
            store.save(Root.TYPE, data.get());
        }
    }

    /** §5.4: the kept timestamp first (for rollback protection, even if expired), then the new one. */
    private void loadTimestamp() throws TufException {
        Optional<byte[]> local = loadLocal(Timestamp.TYPE);
        if (local.isPresent()) {
            try {
                trusted.updateTimestamp(local.get());
            } catch (RepositoryException e) {
                // An expired or unverifiable kept copy: the new timestamp decides (an expired one still counts for rollback).
            }
        }
        byte[] data = fetchMetadata(RoleNames.metadataPath(Timestamp.TYPE, null), limits.timestamp(), false)
                .orElseThrow(() -> new DownloadHttpException("timestamp.json is missing on the server", 404));
        try {
            trusted.updateTimestamp(data);
        } catch (EqualVersionNumberException e) {
            return;  // the kept timestamp is current
        }
        store.save(Timestamp.TYPE, data);
    }

    /** §5.5: the kept snapshot when it is still the one the timestamp names, else the new one. */
    private void loadSnapshot() throws TufException {
        Optional<byte[]> local = loadLocal(Snapshot.TYPE);
        if (local.isPresent()) {
            try {
                trusted.updateSnapshot(local.get(), true);
                return;
            } catch (RepositoryException e) {
                // Not the snapshot the timestamp names, or expired: fetch the new one (the kept one guards against rollback).
            }
        }
        MetaFile meta = trusted.timestamp().orElseThrow().signed().snapshot();
        byte[] data = fetchRole(Snapshot.TYPE, meta, limits.snapshot());
        trusted.updateSnapshot(data, false);
        store.save(Snapshot.TYPE, data);
    }

    /** §5.6: a targets role (top-level, or delegated by {@code delegator}), its kept copy first. */
    private Targets loadTargets(String role, String delegator) throws TufException {
        Metadata<Targets> loaded = trusted.targets().get(role);
        if (loaded != null) {
            trusted.verifyDelegation(role, delegator);
            return loaded.signed();
        }
        Optional<byte[]> local = loadLocal(role);
        if (local.isPresent()) {
            try {
                return trusted.updateDelegatedTargets(local.get(), role, delegator).signed();
            } catch (RepositoryException e) {
                // Outdated or no longer valid: fetch the one the snapshot names.
            }
        }
        MetaFile meta = trusted.snapshot().orElseThrow().signed().meta().get(role + ".json");
        if (meta == null) throw new RepositoryException("role '" + role + "' is delegated but the snapshot does not list it");
        byte[] data = fetchRole(role, meta, limits.targets());
        Metadata<Targets> metadata = trusted.updateDelegatedTargets(data, role, delegator);
        store.save(role, data);
        return metadata.signed();
    }

    private Optional<byte[]> loadLocal(String role) {
        try {
            return store.load(role);
        } catch (StorageException e) {
            return Optional.empty();  // an unreadable kept file is a missing one: the server's copy is verified afresh
        }
    }

    /** A role's file: {@code <version>.<quoted role>.json} in consistent-snapshot repositories. */
    private byte[] fetchRole(String role, MetaFile meta, long defaultLimit) throws TufException {
        Long version = trusted.root().signed().consistentSnapshot() ? meta.version() : null;
        String path = RoleNames.metadataPath(role, version);
        return fetchMetadata(path, meta.file().length().orElse(defaultLimit), false)
                .orElseThrow(() -> new DownloadHttpException(path + " is missing on the server", 404));
    }

    /**
     * A metadata file in memory, at most {@code limit} bytes. Empty when the server has none: 404, or 403 (object
     * storage that hides which keys exist answers 403 for the next root version a client probes for).
     */
    private Optional<byte[]> fetchMetadata(String path, long limit, boolean probing) throws TufException {
        URI uri = Urls.join(metadataBase, path);
        HttpAnswer answer;
        try {
            answer = fetcher.fetch(HttpRequest.get(uri), limit);
        } catch (BodyTooLongException e) {
            throw new DownloadLengthMismatchException(e.getMessage(), e);
        } catch (TransferException e) {
            throw new DownloadException(e.getMessage(), e);
        }
        if (answer.status() == 200) return Optional.of(answer.body());
        if (answer.status() == 404 || answer.status() == 403) {
            if (probing) return Optional.empty();
            throw new DownloadHttpException(path + ": HTTP " + answer.status() + " from " + Urls.shown(uri), answer.status());
        }
        throw new DownloadHttpException(path + ": HTTP " + answer.status() + " from " + Urls.shown(uri), answer.status());
    }
}
