package com.livery.client;

import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TrustedRepository;
import com.livery.client.manifest.ClientVersion;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** What an app asks a fetch for: the essential bundles always, its user's locale, and the programs and tours opened. */
public final class FetchRequest {
    /** Opens the TUF side of a fetch over the cache's {@code metadata/} folder. */
    @FunctionalInterface
    public interface TrustOpener {
        TrustedRepository open(FetchRequest request) throws Exception;
    }

    public final String tenant;
    /** The tenant's repository: {@code <server>/<tenant>/} (or {@code …/channels/<name>/}). */
    public final RepositoryHttp repository;
    /** This tenant's cache folder (trusted metadata, downloads, installed releases). */
    public final Path cache;
    /** Root metadata to trust on first use; later fetches trust the cached root. */
    public byte[] bootstrapRoot;
    /** How the TUF side is opened; the default is the TUF core's Updater. */
    public TrustOpener trust;
    public String locale;
    public List<String> programs = new ArrayList<>(), tours = new ArrayList<>();
    /** Voucher codes to redeem before fetching; the grants are kept in the cache. */
    public List<String> vouchers = new ArrayList<>();
    /** The tenant's voucher server ({@code <server>/<tenant>}) when it is not the repository's server (a bucket or a CDN). */
    public URI voucherServer;
    /** The app's version, checked against minimumClientVersion before anything is downloaded; null skips the check. */
    public ClientVersion appVersion;
    /** The channel the repository is ("stable" for the tenant folder): it takes part in rollout bucketing. */
    public String channel = "stable";
    /** This install's id for staged rollouts; null: the cache's device-id. */
    public String installId;
    /**
     * Tours and programs to add to, or take out of, the cache's remembered selection (kept by every later fetch). With
     * any of these, a fetch changes the installed release instead of updating it: added bundles come from the
     * installed manifest (verified when it was installed), the rest stay as installed, and the metadata is not refreshed.
     */
    public List<String> addTours = new ArrayList<>(), addPrograms = new ArrayList<>(), removeTours = new ArrayList<>(), removePrograms = new ArrayList<>();
    public int maxConcurrentDownloads = 4;
    /**
     * A release shipped inside the app ({@code livery embed}): installed into an empty cache before the first fetch,
     * with no network, and the base of later deltas ({@link EmbeddedRelease}). Null: none.
     */
    public Path embeddedRelease;
    /** False only while installing an embedded release, which holds the channel's release, never a staged one. */
    boolean takesStagedRelease = true;
    /** Never download by delta: every changed bundle comes whole. */
    public boolean fullDownloadsOnly;
    /** Hears the plan, each download's start, progress and end, and the result. */
    public FetchListener listener;
    /** The time used for expiry checks of tokens and URLs; default: when the request was made. */
    public Instant now = Instant.now();

    /** Whether the fetch adds to or removes from the installed release rather than updating it. */
    public boolean changesInstalledRelease() {
        return !(addTours.isEmpty() && addPrograms.isEmpty() && removeTours.isEmpty() && removePrograms.isEmpty());
    }

    public FetchRequest(String tenant, RepositoryHttp repository, Path cache, TrustOpener trust) {
        this.tenant = tenant;
        this.repository = repository;
        this.cache = cache;
        this.trust = trust;
    }
}
