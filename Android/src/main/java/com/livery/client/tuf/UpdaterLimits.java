package com.livery.client.tuf;

/**
 * The updater's bounds on what a repository can make it read (TUF's endless-data defence for metadata whose length
 * no parent signs) and on hostile delegation graphs. The defaults are the Swift client's.
 */
public final class UpdaterLimits {
    public static final UpdaterLimits DEFAULT = new UpdaterLimits(512 << 10, 16 << 10, 2 << 20, 16 << 20, 256, 32);

    private final long root, timestamp, snapshot, targets;
    private final int maxRootRotations, maxDelegations;

    public UpdaterLimits(long root, long timestamp, long snapshot, long targets, int maxRootRotations, int maxDelegations) {
        this.root = root;
        this.timestamp = timestamp;
        this.snapshot = snapshot;
        this.targets = targets;
        this.maxRootRotations = maxRootRotations;
        this.maxDelegations = maxDelegations;
    }

    /** Bytes read for {@code N.root.json}. */
    public long root() { return root; }

    /** Bytes read for {@code timestamp.json}. */
    public long timestamp() { return timestamp; }

    /** Bytes read for the snapshot when the timestamp does not sign its length. */
    public long snapshot() { return snapshot; }

    /** Bytes read for a targets role when the snapshot does not sign its length. */
    public long targets() { return targets; }

    /** Root versions walked in one refresh, at most. */
    public int maxRootRotations() { return maxRootRotations; }

    /** Targets roles visited in one target search, at most (python-tuf's {@code max_delegations}). */
    public int maxDelegations() { return maxDelegations; }
}
