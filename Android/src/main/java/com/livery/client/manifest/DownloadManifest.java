package com.livery.client.manifest;

import com.livery.client.LiveryException;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A release's download manifest (docs/download-manifest.md), read strictly: every field present with its
 * type, known enumeration values, bundle ids unique. Unknown optional fields added later without a new
 * schemaVersion ({@code media} and the like) are tolerated, as the format promises.
 */
public final class DownloadManifest {
    public static final String TARGET_NAME = "download-manifest.json";
    public static final int SCHEMA_VERSION = 1;
    private static final Set<String> KINDS = Set.of("core", "locale", "program", "library-pack", "tour", "tour-language");
    private static final Set<String> POLICIES = Set.of("essential", "prefetch", "on-demand");
    private static final Set<String> ACCESS = Set.of("public", "voucher");

    /** One bundle of the release. */
    public static final class Bundle {
        public final String id, kind, subject, locale, sha256, path, policy, access, minimumClientVersion;
        public final long size;
        /** Bytes once extracted; -1 when an older build did not write it. */
        public final long installSize;
        public final List<String> dependencies;
        public final BundleEncryption encryption;
        public final FileIndexReference files;
        public final Instant availableFrom, availableUntil;

        Bundle(JsonObject o, String what) throws JsonException {
            id = o.string("id");
            kind = oneOf(o, "kind", KINDS);
            subject = o.optionalString("subject");
            locale = o.optionalString("locale");
            size = o.integer("size");
            sha256 = o.string("sha256");
            path = o.string("path");
            policy = oneOf(o, "policy", POLICIES);
            access = oneOf(o, "access", ACCESS);
            dependencies = Collections.unmodifiableList(o.strings("dependencies"));
            minimumClientVersion = o.string("minimumClientVersion");
            encryption = o.has("encryption") ? BundleEncryption.read(o.raw("encryption"), what) : null;
            if (o.has("media") && !(o.raw("media") instanceof Map)) throw new JsonException(what + ": \"media\" must be an object");
            installSize = o.has("installSize") ? o.integer("installSize") : -1;
            availableFrom = o.optionalDate("availableFrom");
            availableUntil = o.optionalDate("availableUntil");
            if (availableFrom != null && availableUntil != null && !availableUntil.isAfter(availableFrom)) {
                throw new JsonException(what + ": \"availableUntil\" is not after \"availableFrom\"");
            }
            files = o.has("files") ? FileIndexReference.read(o.raw("files"), what) : null;
        }

        /** The bundle's TUF target name: {@code <id>.<format>}. */
        public String targetName(String format) {
            return id + "." + format;
        }

        public boolean isEssential() { return policy.equals("essential"); }
        public boolean isProtected() { return access.equals("voucher"); }

        /** Whether an app shows the bundle's content at {@code date} (docs/schedules.md). */
        public boolean isAvailable(Instant date) {
            return (availableFrom == null || !date.isBefore(availableFrom)) && (availableUntil == null || date.isBefore(availableUntil));
        }
    }

    public final String tenant, format, minimumClientVersion;
    public final long release;
    public final List<Bundle> bundles;

    private DownloadManifest(String tenant, long release, String format, String minimumClientVersion, List<Bundle> bundles) {
        this.tenant = tenant;
        this.release = release;
        this.format = format;
        this.minimumClientVersion = minimumClientVersion;
        this.bundles = bundles;
    }

    /** Reads a manifest; throws a {@code MALFORMED} {@link LiveryException} naming what is wrong. */
    public static DownloadManifest parse(byte[] data) throws LiveryException {
        try {
            return read(data);
        } catch (JsonException e) {
            throw LiveryException.malformed(e);
        }
    }

    private static DownloadManifest read(byte[] data) throws JsonException {
        JsonObject top = JsonObject.parse(data, TARGET_NAME);
        long schema = top.integer("schemaVersion");
        if (schema != SCHEMA_VERSION) throw new JsonException(TARGET_NAME + ": schemaVersion " + schema + " is not 1 (a newer client is needed)");
        List<?> items = top.list("bundles");
        List<Bundle> bundles = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String what = TARGET_NAME + " bundle " + (i + 1);
            Bundle bundle = new Bundle(JsonObject.of(items.get(i), what), what);
            if (!seen.add(bundle.id)) throw new JsonException(TARGET_NAME + " lists bundle '" + bundle.id + "' twice");
            bundles.add(bundle);
        }
        String format = top.string("format");
        if (!format.equals("zip") && !format.equals("tar.zst")) throw new JsonException(TARGET_NAME + ": unknown format \"" + format + "\"");
        return new DownloadManifest(top.string("tenant"), top.integer("release", 1), format, top.string("minimumClientVersion"),
                Collections.unmodifiableList(bundles));
    }

    public Bundle bundle(String id) {
        for (Bundle b : bundles) if (b.id.equals(id)) return b;
        return null;
    }

    private static String oneOf(JsonObject o, String key, Set<String> allowed) throws JsonException {
        String value = o.string(key);
        if (!allowed.contains(value)) throw new JsonException(o.what() + ": \"" + key + "\" has the unknown value \"" + value + "\"");
        return value;
    }

}
