package com.livery.client.tuf;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The client's trust logic, the detailed client workflow of the TUF specification 1.0.x (§5.2–5.6), as a state
 * machine with no I/O: it takes a file's bytes and the reference time, and either trusts the metadata or throws a
 * typed {@link TufException}. The {@link Updater} around it only fetches and stores. python-tuf's
 * {@code ngclient.TrustedMetadataSet} is the model and its order of checks is kept, because the conformance suite
 * probes it.
 *
 * <p>The order is fixed: every root update comes first, then the timestamp, the snapshot, targets, and delegated
 * targets roles, each loaded only after its delegator (calls out of order are programming errors:
 * {@link IllegalStateException}). What is checked when:
 * <ul>
 *   <li>a new root must be signed by a threshold of the trusted root's keys and of its own, and be exactly the next
 *       version; its expiry is checked only once the walk is over (§5.3.10), before the timestamp;</li>
 *   <li>a timestamp is verified by root's keys; a new one may not go back in version nor name an older snapshot;
 *       an equal version is {@link EqualVersionNumberException}: keep the trusted one;</li>
 *   <li>a snapshot must match the timestamp's length and hashes (unless it is the client's own verified copy),
 *       may not drop or roll back any file the trusted snapshot lists, and is final only when it is the version the
 *       timestamp names and not expired;</li>
 *   <li>a targets role must be listed in the final snapshot, match its length and hashes, be signed by its
 *       delegator's keys for it, be the version the snapshot names, and not be expired.</li>
 * </ul>
 * A timestamp or snapshot may be trusted while expired or not final (it still guards against rollback of the next
 * one): such an update throws after recording it, and the workflow goes on with a newer file.
 */
public final class TrustedMetadataSet {
    private final Instant now;
    private Metadata<Root> root;
    private Metadata<Timestamp> timestamp;
    private Metadata<Snapshot> snapshot;
    private final Map<String, Metadata<Targets>> targets = new LinkedHashMap<>();

    /** Starts from a trusted root, which must be signed by a threshold of its own keys (§5.2); it may be expired. */
    public TrustedMetadataSet(byte[] rootData, Instant now) throws TufException {
        this.now = Objects.requireNonNull(now, "now");
        Metadata<Root> trusted = Metadata.fromBytes(rootData, Root.class);
        trusted.signed().verifyDelegate(Root.TYPE, trusted, "the trusted root");
        root = trusted;
    }

    public Instant referenceTime() { return now; }

    public Metadata<Root> root() { return root; }

    public Optional<Metadata<Timestamp>> timestamp() { return Optional.ofNullable(timestamp); }

    public Optional<Metadata<Snapshot>> snapshot() { return Optional.ofNullable(snapshot); }

    /** {@code targets} and the delegated roles trusted so far, by role name. */
    public Map<String, Metadata<Targets>> targets() { return Collections.unmodifiableMap(targets); }

    /** §5.3: the next root version, signed by a threshold of the trusted root's keys and of its own. */
    public Metadata<Root> updateRoot(byte[] data) throws TufException {
        if (timestamp != null) throw new IllegalStateException("root is updated before the timestamp");
        Metadata<Root> next = Metadata.fromBytes(data, Root.class);
        long version = next.signed().version(), trusted = root.signed().version();
        root.signed().verifyDelegate(Root.TYPE, next, "root version " + version + " (by the keys of trusted root version " + trusted + ")");
        if (version != trusted + 1) {
            throw new BadVersionNumberException("root version " + version + " came where version " + (trusted + 1) + " was expected");
        }
        next.signed().verifyDelegate(Root.TYPE, next, "root version " + version + " (by its own keys)");
        root = next;
        return next;
    }

    /** §5.4: a timestamp, local or new. */
    public Metadata<Timestamp> updateTimestamp(byte[] data) throws TufException {
        if (snapshot != null) throw new IllegalStateException("the timestamp is updated before the snapshot");
        // §5.3.10: the root the walk ended on must be current before anything it signs is used.
        if (root.signed().isExpired(now)) {
            throw new ExpiredMetadataException("root version " + root.signed().version() + " expired at " + root.signed().expires() + " and no newer root is published");
        }
        Metadata<Timestamp> next = Metadata.fromBytes(data, Timestamp.class);
        root.signed().verifyDelegate(Timestamp.TYPE, next, "timestamp");
        if (timestamp != null) {
            Timestamp trusted = timestamp.signed(), fresh = next.signed();
            if (fresh.version() < trusted.version()) {
                throw new BadVersionNumberException("timestamp version " + fresh.version() + " is older than trusted version " + trusted.version() + " (a rollback)");
            }
            if (fresh.version() == trusted.version()) {
                throw new EqualVersionNumberException("timestamp version " + fresh.version() + " is the trusted version");
            }
            if (fresh.snapshot().version() < trusted.snapshot().version()) {
                throw new BadVersionNumberException("timestamp names snapshot version " + fresh.snapshot().version() + ", older than trusted version "
                        + trusted.snapshot().version() + " (a rollback)");
            }
        }
        timestamp = next;
        checkFinalTimestamp();
        return next;
    }

    /**
     * §5.5: the snapshot the timestamp names. {@code verified}: the client's own copy, already checked against a
     * timestamp's length and hashes when it was stored (python-tuf's {@code trusted=True}).
     */
    public Metadata<Snapshot> updateSnapshot(byte[] data, boolean verified) throws TufException {
        if (timestamp == null) throw new IllegalStateException("the snapshot is updated after the timestamp");
        if (!targets.isEmpty()) throw new IllegalStateException("the snapshot is updated before targets");
        checkFinalTimestamp();
        if (!verified) timestamp.signed().snapshot().file().verify(data, "snapshot.json");
        Metadata<Snapshot> next = Metadata.fromBytes(data, Snapshot.class);
        root.signed().verifyDelegate(Snapshot.TYPE, next, "snapshot");
        if (snapshot != null) {
            for (Map.Entry<String, MetaFile> entry : snapshot.signed().meta().entrySet()) {
                MetaFile fresh = next.signed().meta().get(entry.getKey());
                if (fresh == null) {
                    throw new RepositoryException("snapshot version " + next.signed().version() + " no longer lists " + entry.getKey() + " (a role removed, or a rollback)");
                }
                if (fresh.version() < entry.getValue().version()) {
                    throw new BadVersionNumberException("snapshot names " + entry.getKey() + " version " + fresh.version() + ", older than trusted version "
                            + entry.getValue().version() + " (a rollback)");
                }
            }
        }
        snapshot = next;
        checkFinalSnapshot();
        return next;
    }

    /** §5.6: top-level targets. */
    public Metadata<Targets> updateTargets(byte[] data) throws TufException {
        return updateDelegatedTargets(data, Targets.TYPE, null);
    }

    /**
     * §5.6 for any targets role: {@code delegator} is the trusted targets role that delegates to {@code role} (null
     * for top-level targets, which root's keys sign).
     */
    public Metadata<Targets> updateDelegatedTargets(byte[] data, String role, String delegator) throws TufException {
        if (snapshot == null) throw new IllegalStateException("targets are updated after the snapshot");
        checkFinalSnapshot();
        if (delegator != null && !targets.containsKey(delegator)) throw new IllegalStateException("a delegated role is loaded after its delegator");
        MetaFile meta = snapshot.signed().meta().get(role + ".json");
        if (meta == null) throw new RepositoryException("the snapshot does not list role '" + role + "'");
        meta.file().verify(data, role + ".json");
        Metadata<Targets> next = Metadata.fromBytes(data, Targets.class);
        verifyBy(delegator, role, next);
        if (next.signed().version() != meta.version()) {
            throw new BadVersionNumberException("'" + role + "' is version " + next.signed().version() + ", the snapshot names version " + meta.version());
        }
        if (next.signed().isExpired(now)) {
            throw new ExpiredMetadataException("'" + role + "' metadata expired at " + next.signed().expires() + " (a freeze attack, or a release nobody re-signed)");
        }
        targets.put(role, next);
        return next;
    }

    /**
     * Checks a trusted targets role against {@code delegator}'s keys for it: a role reached through another
     * delegation than the one it was loaded through must not inherit that authority.
     */
    public void verifyDelegation(String role, String delegator) throws TufException {
        Metadata<Targets> metadata = targets.get(role);
        if (metadata == null) throw new IllegalStateException("'" + role + "' is not trusted yet");
        verifyBy(delegator, role, metadata);
    }

    private void verifyBy(String delegator, String role, Metadata<Targets> metadata) throws TufException {
        if (delegator == null) {
            root.signed().verifyDelegate(Targets.TYPE, metadata, "'" + role + "'");
        } else {
            targets.get(delegator).signed().verifyDelegate(role, metadata, "'" + role + "' (delegated by '" + delegator + "')");
        }
    }

    private void checkFinalTimestamp() throws ExpiredMetadataException {
        if (timestamp.signed().isExpired(now)) {
            throw new ExpiredMetadataException("timestamp metadata expired at " + timestamp.signed().expires() + " (a freeze attack, or a release nobody re-signed)");
        }
    }

    private void checkFinalSnapshot() throws TufException {
        if (snapshot.signed().isExpired(now)) {
            throw new ExpiredMetadataException("snapshot metadata expired at " + snapshot.signed().expires() + " (a freeze attack, or a release nobody re-signed)");
        }
        if (snapshot.signed().version() != timestamp.signed().snapshot().version()) {
            throw new BadVersionNumberException("snapshot is version " + snapshot.signed().version() + ", the timestamp names version "
                    + timestamp.signed().snapshot().version());
        }
    }
}
