package com.livery.client.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.livery.client.LiveryException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON as plain Java values (Map, List, String, Long, BigDecimal, Boolean, null), read with jackson-core's
 * streaming parser (duplicate keys refused) and written as Livery writes it: sorted keys, no whitespace,
 * minimal escapes, one newline at the end.
 */
public final class Json {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    /** Nesting deeper than this is refused: Livery's documents are a few levels deep, and recursion must stay bounded. */
    private static final int MAX_DEPTH = 64;

    private Json() {}

    /** Parses one JSON text; trailing bytes other than whitespace are refused. */
    public static Object parse(byte[] bytes, String what) throws LiveryException {
        try (JsonParser parser = FACTORY.createParser(bytes)) {
            JsonToken first = parser.nextToken();
            if (first == null) throw new LiveryException(LiveryException.Kind.MALFORMED, what + ": empty document");
            Object value = read(parser, 0, what);
            if (parser.nextToken() != null) throw new LiveryException(LiveryException.Kind.MALFORMED, what + ": bytes after the JSON text");
            return value;
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.MALFORMED, what + ": not valid JSON (" + e.getMessage().split("\n")[0] + ")", e);
        }
    }

    /** Parses a JSON object. */
    public static JsonObject parseObject(byte[] bytes, String what) throws LiveryException {
        return JsonObject.of(parse(bytes, what), what);
    }

    private static Object read(JsonParser parser, int depth, String what) throws IOException, LiveryException {
        if (depth > MAX_DEPTH) throw new LiveryException(LiveryException.Kind.MALFORMED, what + ": nested too deeply");
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> map = new TreeMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    parser.nextToken();
                    map.put(key, read(parser, depth + 1, what));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) list.add(read(parser, depth + 1, what));
                return list;
            }
            case VALUE_STRING: return parser.getText();
            case VALUE_NUMBER_INT:
                if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) return new BigDecimal(parser.getBigIntegerValue());
                return parser.getLongValue();
            case VALUE_NUMBER_FLOAT: return parser.getDecimalValue();
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_NULL: return null;
            default: throw new LiveryException(LiveryException.Kind.MALFORMED, what + ": unexpected " + token);
        }
    }

    /** The value as Livery writes JSON: sorted keys (by UTF-16 order, the same as UTF-8 byte order for the ASCII keys Livery uses), no whitespace, a final newline. */
    public static byte[] write(Object value) {
        StringBuilder out = new StringBuilder();
        append(value, out);
        out.append('\n');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static void append(Object value, StringBuilder out) {
        if (value == null) {
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
