package com.livery.client.json;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON object read strictly, naming its document ({@code what}): each accessor says what it expected when a field
 * is missing or of another type ({@link JsonValues} does the checks).
 */
public final class JsonObject {
    private final Map<String, Object> fields;
    private final String what;

    private JsonObject(Map<String, Object> fields, String what) {
        this.fields = fields;
        this.what = what;
    }

    public static JsonObject of(Object value, String what) throws JsonException {
        return new JsonObject(JsonValues.object(value, what), what);
    }

    /** Parses {@code bytes} as a JSON object; a failure's message starts with {@code what}. */
    public static JsonObject parse(byte[] bytes, String what) throws JsonException {
        Object value;
        try {
            value = Json.parse(bytes);
        } catch (JsonException e) {
            throw new JsonException(what + ": " + e.getMessage(), e);
        }
        return of(value, what);
    }

    public String what() { return what; }
    public Set<String> keys() { return Collections.unmodifiableSet(fields.keySet()); }
    public boolean has(String key) { return fields.containsKey(key); }
    public Object raw(String key) { return fields.get(key); }
    public Map<String, Object> map() { return Collections.unmodifiableMap(fields); }

    public String string(String key) throws JsonException {
        return JsonValues.string(fields.get(key), field(key));
    }

    /** The text of {@code key}, or null when the object has no {@code key}. */
    public String optionalString(String key) throws JsonException {
        if (!fields.containsKey(key)) return null;
        return string(key);
    }

    public long integer(String key, long minimum) throws JsonException {
        long n = JsonValues.integer(fields.get(key), field(key));
        if (n < minimum) throw new JsonException(field(key) + " must be at least " + minimum);
        return n;
    }

    /** A non-negative integer. */
    public long integer(String key) throws JsonException { return integer(key, 0); }

    public List<String> strings(String key) throws JsonException {
        return JsonValues.strings(fields.get(key), field(key));
    }

    public List<?> list(String key) throws JsonException {
        return JsonValues.array(fields.get(key), field(key));
    }

    public JsonObject object(String key) throws JsonException {
        return of(fields.get(key), what + " " + key);
    }

    /** The date of {@code key} ({@link JsonValues#date}), or null when the object has no {@code key}. */
    public Instant optionalDate(String key) throws JsonException {
        if (!fields.containsKey(key)) return null;
        return JsonValues.date(fields.get(key), field(key));
    }

    /** Refuses any field not in {@code allowed}. */
    public void onlyKeys(String... allowed) throws JsonException {
        outer:
        for (String key : fields.keySet()) {
            for (String a : allowed) if (a.equals(key)) continue outer;
            throw new JsonException(what + ": unknown field \"" + key + "\"");
        }
    }

    private String field(String key) {
        return what + ": \"" + key + "\"";
    }
}
