package com.livery.client.tuf;

import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Strict reads of the fields of a parsed JSON object: a field of the wrong type is a
 * {@link DeserializationException}, never a guess (python-tuf's {@code from_dict} is the model).
 */
final class Fields {
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");

    private Fields() {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value, String what) throws DeserializationException {
        if (!(value instanceof Map)) throw new DeserializationException(what + " must be an object");
        return (Map<String, Object>) value;
    }

    static List<?> array(Object value, String what) throws DeserializationException {
        if (!(value instanceof List)) throw new DeserializationException(what + " must be a list");
        return (List<?>) value;
    }

    static String string(Object value, String what) throws DeserializationException {
        if (!(value instanceof String)) throw new DeserializationException(what + " must be text");
        return (String) value;
    }

    static List<String> strings(Object value, String what) throws DeserializationException {
        List<String> out = new ArrayList<>();
        for (Object item : array(value, what)) out.add(string(item, what + " item"));
        return out;
    }

    /** An integer that fits a long (a version, a length, a threshold). */
    static long integer(Object value, String what) throws DeserializationException {
        if (value instanceof Long) return (Long) value;
        if (value instanceof BigInteger) throw new DeserializationException(what + " is too large");
        throw new DeserializationException(what + " must be an integer");
    }

    static boolean bool(Object value, String what) throws DeserializationException {
        if (!(value instanceof Boolean)) throw new DeserializationException(what + " must be true or false");
        return (Boolean) value;
    }

    static Object required(Map<String, Object> object, String key, String what) throws DeserializationException {
        Object value = object.get(key);
        if (value == null) throw new DeserializationException(what + " has no " + key);
        return value;
    }

    /** Exactly {@code YYYY-MM-DDThh:mm:ssZ}, as TUF writes dates and python-tuf reads them. */
    static Instant date(Object value, String what) throws DeserializationException {
        String text = string(value, what);
        if (!DATE.matcher(text).matches()) throw new DeserializationException(what + " must be a date like 2030-01-01T00:00:00Z, not " + text);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new DeserializationException(what + " is not a real date: " + text);
        }
    }
}
