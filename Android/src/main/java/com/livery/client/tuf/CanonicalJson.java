package com.livery.client.tuf;

import com.livery.client.json.Json;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Canonical JSON as TUF signs it (the OLPC form securesystemslib's {@code encode_canonical} writes, which python-tuf
 * verifies against): object keys sorted by Unicode code point, no insignificant whitespace, strings as raw UTF-8
 * with only {@code "} and {@code \} escaped, integers only. Written by hand because no JSON library writes this
 * dialect (they escape control characters and non-ASCII, and sort keys by UTF-16 unit).
 */
public final class CanonicalJson {
    private CanonicalJson() {}

    /** The canonical bytes of a value as {@link Json#parse} returns it; refuses floats, which cannot be signed. */
    public static byte[] encode(Object value) throws DeserializationException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(value, out);
        return out.toByteArray();
    }

    private static void write(Object value, ByteArrayOutputStream out) throws DeserializationException {
        if (value == Json.NULL || value == null) {
            ascii("null", out);
        } else if (value instanceof Boolean) {
            ascii(value.toString(), out);
        } else if (value instanceof Long || value instanceof Integer || value instanceof BigInteger) {
            ascii(value.toString(), out);
        } else if (value instanceof String) {
            string((String) value, out);
        } else if (value instanceof List) {
            out.write('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                if (!first) out.write(',');
                first = false;
                write(item, out);
            }
            out.write(']');
        } else if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            List<String> keys = new ArrayList<>();
            for (Object key : map.keySet()) keys.add((String) key);
            keys.sort(CanonicalJson::compareCodePoints);
            out.write('{');
            boolean first = true;
            for (String key : keys) {
                if (!first) out.write(',');
                first = false;
                string(key, out);
                out.write(':');
                write(map.get(key), out);
            }
            out.write('}');
        } else {
            throw new DeserializationException("canonical JSON has no " + (value instanceof Double || value instanceof BigDecimal ? "floating-point numbers: " + value : value.getClass().getSimpleName()));
        }
    }

    private static void string(String text, ByteArrayOutputStream out) {
        out.write('"');
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            if (b == '"' || b == '\\') out.write('\\');
            out.write(b);
        }
        out.write('"');
    }

    private static void ascii(String text, ByteArrayOutputStream out) {
        out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Code-point order (Python's string order), which differs from {@link String#compareTo} above U+FFFF. */
    static int compareCodePoints(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i), cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
