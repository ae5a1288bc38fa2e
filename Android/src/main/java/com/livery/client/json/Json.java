package com.livery.client.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON text as plain Java values, read with jackson-core's streaming parser (the field's standard, and present on
 * Android as a small jar) and written as Livery writes it. Read values: objects are unmodifiable
 * {@code Map<String, Object>} in document order, arrays unmodifiable {@code List<Object>}, strings {@code String},
 * integers {@code Long} (or {@code BigInteger} past 64 bits), other numbers {@code BigDecimal} (exact, never an
 * integer to {@link JsonValues#integer}), {@code Boolean}, and {@link #NULL}. Strict: duplicate keys, trailing data,
 * invalid UTF-8, an empty text and deep nesting are refused, because two readers of one signed file must never see
 * two different documents.
 */
public final class Json {
    /** JSON's {@code null} (a {@code Map} cannot hold Java's null as a value unambiguously). */
    public static final Object NULL = new Object() {
        @Override public String toString() { return "null"; }
    };

    /** Nesting deeper than this is refused: the documents are a few levels deep, a hostile file could be thousands. */
    static final int MAX_DEPTH = 64;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    private Json() {}

    /** Parses {@code bytes} (UTF-8 JSON text) or throws a {@link JsonException} saying where it is wrong. */
    public static Object parse(byte[] bytes) throws JsonException {
        try (JsonParser parser = FACTORY.createParser(bytes)) {
            JsonToken first = parser.nextToken();
            if (first == null) throw new JsonException("not JSON: the text is empty");
            Object value = read(parser, first, 0);
            if (parser.nextToken() != null) throw new JsonException("not JSON: data after the value at " + where(parser));
            return value;
        } catch (JsonParseException e) {
            throw new JsonException("not JSON: " + e.getOriginalMessage() + " at " + where(e.getProcessor()), e);
        } catch (IOException e) {
            throw new JsonException("not JSON: " + String.valueOf(e.getMessage()).split("\n")[0], e);
        }
    }

    private static Object read(JsonParser parser, JsonToken token, int depth) throws IOException, JsonException {
        if (depth > MAX_DEPTH) throw new JsonException("not JSON this client reads: nested deeper than " + MAX_DEPTH);
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
                    String key = parser.currentName();
                    object.put(key, read(parser, parser.nextToken(), depth + 1));
                }
                return Collections.unmodifiableMap(object);
            }
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    array.add(read(parser, next, depth + 1));
                }
                return Collections.unmodifiableList(array);
            }
            case VALUE_STRING: return parser.getText();
            case VALUE_NUMBER_INT: {
                BigInteger value = parser.getBigIntegerValue();
                return value.bitLength() < 64 ? (Object) value.longValue() : value;
            }
            case VALUE_NUMBER_FLOAT: return parser.getDecimalValue();
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_NULL: return NULL;
            default: throw new JsonException("not JSON: unexpected " + token + " at " + where(parser));
        }
    }

    private static String where(Object processor) {
        if (!(processor instanceof JsonParser)) return "?";
        JsonParser parser = (JsonParser) processor;
        return "line " + parser.currentLocation().getLineNr() + ", column " + parser.currentLocation().getColumnNr();
    }

    /**
     * The value as Livery writes JSON: sorted keys (by UTF-16 order, the same as UTF-8 byte order for the ASCII keys
     * Livery uses), no whitespace, minimal escapes, a final newline. (What TUF signs is {@code tuf.CanonicalJson}.)
     */
    public static byte[] write(Object value) {
        StringBuilder out = new StringBuilder();
        append(value, out);
        out.append('\n');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static void append(Object value, StringBuilder out) {
        if (value == null || value == NULL) {
            out.append("null");
        } else if (value instanceof String) {
            appendString((String) value, out);
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : new TreeMap<>((Map<String, Object>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                appendString(e.getKey(), out);
                out.append(':');
                append(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<Object>) value) {
                if (!first) out.append(',');
                first = false;
                append(item, out);
            }
            out.append(']');
        } else {
            out.append(value);
        }
    }

    private static void appendString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }
}
