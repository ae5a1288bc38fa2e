package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.time.Instant;
import java.util.Map;

/**
 * The {@code signed} part every role shares (python-tuf's {@code Signed}): type, version, spec version and expiry,
 * read strictly, and the whole object as read, unknown fields included (its canonical form is what is signed).
 */
public abstract class Signed {
    private final long version;
    private final String specVersion;
    private final Instant expires;
    private final Map<String, Object> json;

    protected Signed(Map<String, Object> json, String type) throws JsonException {
        Object actual = JsonValues.required(json, "_type", "metadata");
        if (!type.equals(actual)) throw new JsonException("expected " + type + " metadata, found " + actual);
        version = JsonValues.integer(JsonValues.required(json, "version", type), type + " version");
        if (version < 1) throw new JsonException(type + " version " + version + " is below 1");
        specVersion = JsonValues.string(JsonValues.required(json, "spec_version", type), type + " spec_version");
        String[] parts = specVersion.split("\\.", -1);
        boolean numeric = parts.length >= 2 && parts.length <= 3;
        for (String part : parts) numeric &= part.matches("[0-9]+");
        if (!numeric || !parts[0].equals("1")) throw new JsonException("unsupported spec_version " + specVersion + " (this client reads 1.x)");
        expires = JsonValues.date(JsonValues.required(json, "expires", type), type + " expires");
        this.json = json;
    }

    /** {@code root}, {@code timestamp}, {@code snapshot} or {@code targets}. */
    public abstract String type();

    public long version() { return version; }

    public String specVersion() { return specVersion; }

    public Instant expires() { return expires; }

    /** Expired at {@code now}: a role is expired from its {@code expires} instant on. */
    public boolean isExpired(Instant now) { return !now.isBefore(expires); }

    /** The {@code signed} object as read. */
    public Map<String, Object> json() { return json; }
}
