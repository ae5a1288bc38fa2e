package com.livery.client.json;

import com.livery.client.LiveryException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A JSON object read strictly: each accessor says what it expected, naming the document, when a field is missing or of another type. */
public final class JsonObject {
    private final Map<String, Object> fields;
    private final String what;

    private JsonObject(Map<String, Object> fields, String what) {
        this.fields = fields;
        this.what = what;
    }

    @SuppressWarnings("unchecked")
    public static JsonObject of(Object value, String what) throws LiveryException {
        if (!(value instanceof Map)) throw malformed(what + " must be a JSON object");
        return new JsonObject((Map<String, Object>) value, what);
    }

    public static LiveryException malformed(String message) {
        return new LiveryException(LiveryException.Kind.MALFORMED, message);
    }

    public String what() { return what; }
    public Set<String> keys() { return Collections.unmodifiableSet(fields.keySet()); }
    public boolean has(String key) { return fields.containsKey(key); }
    public Object raw(String key) { return fields.get(key); }
    public Map<String, Object> map() { return Collections.unmodifiableMap(fields); }

    public String string(String key) throws LiveryException {
        Object value = fields.get(key);
        if (!(value instanceof String)) throw malformed(what + ": \"" + key + "\" must be a text");
        return (String) value;
    }

    public String optionalString(String key) throws LiveryException {
        if (!fields.containsKey(key)) return null;
        return string(key);
    }

    public long integer(String key, long minimum) throws LiveryException {
        Object value = fields.get(key);
        long n;
        if (value instanceof Long) {
            n = (Long) value;
        } else if (value instanceof BigDecimal && ((BigDecimal) value).stripTrailingZeros().scale() <= 0) {
            try {
                n = ((BigDecimal) value).longValueExact();
            } catch (ArithmeticException e) {
                throw malformed(what + ": \"" + key + "\" is out of range");
            }
        } else {
            throw malformed(what + ": \"" + key + "\" must be an integer");
        }
        if (n < minimum) throw malformed(what + ": \"" + key + "\" must be at least " + minimum);
        return n;
    }

    public long integer(String key) throws LiveryException { return integer(key, 0); }

    public List<String> strings(String key) throws LiveryException {
        Object value = fields.get(key);
        if (!(value instanceof List)) throw malformed(what + ": \"" + key + "\" must be a list of texts");
        List<String> out = new ArrayList<>();
        for (Object item : (List<?>) value) {
            if (!(item instanceof String)) throw malformed(what + ": \"" + key + "\" must be a list of texts");
            out.add((String) item);
        }
        return out;
    }

    public List<?> list(String key) throws LiveryException {
        Object value = fields.get(key);
        if (!(value instanceof List)) throw malformed(what + ": \"" + key + "\" must be a list");
        return (List<?>) value;
    }

    public JsonObject object(String key) throws LiveryException {
        return of(fields.get(key), what + " " + key);
    }

    /** Refuses any field not in {@code allowed}. */
    public void onlyKeys(String... allowed) throws LiveryException {
        outer:
        for (String key : fields.keySet()) {
            for (String a : allowed) if (a.equals(key)) continue outer;
            throw malformed(what + ": unknown field \"" + key + "\"");
        }
    }
}
