package com.livery.client;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What a fetch did: the release installed (or kept), where, what was downloaded and reused, and why it is offline if it is. */
public final class FetchResult {
    public final long release;
    /** The release's folder under {@code releases/}; the app reads {@code installed/bundles/<bundle id>/}. */
    public final Path installed;
    public final List<String> downloaded, reused;
    /** True when the refresh or a download failed and the previously installed release is kept. */
    public final boolean offline;
    /** Why (offline, or a release kept after a halted rollout); null otherwise. */
    public final String problem;
    /** The failure behind {@code problem}, for callers that classify it (the client vectors); null otherwise. */
    public final Throwable cause;
    public final boolean staged;
    /** The downloaded bundles that came by delta, and those whose delta was refused with the reason. */
    public final List<String> deltas;
    public final Map<String, String> deltaFallbacks;
    /** What the fetch chose instead of what was asked (a locale fallback, a tour's audio language, a remembered tour gone). */
    public final List<String> notes;
    /** Bytes the fetch needed to download and to install. */
    public final long neededDownload, neededInstall;

    public FetchResult(long release, Path installed, List<String> downloaded, List<String> reused, boolean offline, String problem,
                       Throwable cause, boolean staged, List<String> deltas, Map<String, String> deltaFallbacks, List<String> notes,
                       long neededDownload, long neededInstall) {
        this.release = release;
        this.installed = installed;
        this.downloaded = List.copyOf(downloaded);
        this.reused = List.copyOf(reused);
        this.offline = offline;
        this.problem = problem;
        this.cause = cause;
        this.staged = staged;
        this.deltas = List.copyOf(deltas);
        this.deltaFallbacks = Map.copyOf(deltaFallbacks);
        this.notes = List.copyOf(notes);
        this.neededDownload = neededDownload;
        this.neededInstall = neededInstall;
    }

    FetchResult withNotes(List<String> notes, boolean staged) {
        return new FetchResult(release, installed, downloaded, reused, offline, problem, cause, staged, deltas, deltaFallbacks, notes, neededDownload, neededInstall);
    }
}
