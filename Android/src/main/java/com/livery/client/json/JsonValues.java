package com.livery.client.json;

import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Strict reads of values {@link Json#parse} returned: a value of the wrong type is a {@link JsonException} naming
 * {@code what} was expected, never a guess (python-tuf's {@code from_dict} is the model). {@link JsonObject} reads
 * an object's fields through these.
 */
public final class JsonValues {
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");

    private JsonValues() {}

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object value, String what) throws JsonException {
        if (!(value instanceof Map)) throw new JsonException(what + " must be an object");
        return (Map<String, Object>) value;
    }

    public static List<?> array(Object value, String what) throws JsonException {
        if (!(value instanceof List)) throw new JsonException(what + " must be a list");
        return (List<?>) value;
    }

    public static String string(Object value, String what) throws JsonException {
        if (!(value instanceof String)) throw new JsonException(what + " must be text");
        return (String) value;
    }

    public static List<String> strings(Object value, String what) throws JsonException {
        List<String> out = new ArrayList<>();
        for (Object item : array(value, what)) out.add(string(item, what + " item"));
        return out;
    }

    /** An integer that fits a long (a version, a length, a threshold); {@code 1.0} and {@code 1e3} are not integers. */
    public static long integer(Object value, String what) throws JsonException {
        if (value instanceof Long) return (Long) value;
        if (value instanceof BigInteger) throw new JsonException(what + " is too large");
        throw new JsonException(what + " must be an integer");
    }

    public static boolean bool(Object value, String what) throws JsonException {
        if (!(value instanceof Boolean)) throw new JsonException(what + " must be true or false");
        return (Boolean) value;
    }

    /** The value of {@code key}; a missing key is refused (a JSON {@code null} is present, and refused by the type read). */
    public static Object required(Map<String, Object> object, String key, String what) throws JsonException {
        Object value = object.get(key);
        if (value == null) throw new JsonException(what + " has no " + key);
        return value;
    }

    /** Exactly {@code YYYY-MM-DDThh:mm:ssZ}, as Livery and TUF write dates and python-tuf reads them. */
    public static Instant date(Object value, String what) throws JsonException {
        String text = string(value, what);
        if (!DATE.matcher(text).matches()) throw new JsonException(what + " must be a date like 2030-01-01T00:00:00Z, not " + text);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new JsonException(what + " is not a real date: " + text);
        }
    }
}
