package com.livery.client.tuf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON text into plain Java values with jackson-core's streaming parser (the field's standard, and present on
 * Android as a small jar): objects are {@code Map<String, Object>} in document order, arrays {@code List<Object>},
 * strings {@code String}, integers {@code Long} (or {@code BigInteger} past 64 bits), other numbers {@code Double},
 * {@code Boolean}, and {@link #NULL}. Strict: duplicate keys, trailing data, invalid UTF-8 and deep nesting are
 * refused, because two readers of one signed file must never see two different documents.
 */
public final class Json {
    /** JSON's {@code null} (a {@code Map} cannot hold Java's null as a value unambiguously). */
    public static final Object NULL = new Object() {
        @Override public String toString() { return "null"; }
    };

    /** Nesting deeper than this is refused (TUF metadata is a few levels deep; a hostile file could be thousands). */
    static final int MAX_DEPTH = 64;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    private Json() {}

    /** Parses {@code bytes} (UTF-8 JSON text) or throws {@link DeserializationException} saying where it is wrong. */
    public static Object parse(byte[] bytes) throws DeserializationException {
        try (JsonParser parser = FACTORY.createParser(bytes)) {
            JsonToken first = parser.nextToken();
            if (first == null) throw new DeserializationException("not JSON: the file is empty");
            Object value = read(parser, first, 0);
            if (parser.nextToken() != null) throw new DeserializationException("not JSON: data after the value at " + where(parser));
            return value;
        } catch (JsonParseException e) {
            throw new DeserializationException("not JSON: " + e.getOriginalMessage() + " at " + where(e.getProcessor()));
        } catch (IOException e) {
            throw new DeserializationException("not JSON: " + e.getMessage());
        }
    }

    private static Object read(JsonParser parser, JsonToken token, int depth) throws IOException, DeserializationException {
        if (depth > MAX_DEPTH) throw new DeserializationException("not JSON this client reads: nested deeper than " + MAX_DEPTH);
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
                    String key = parser.getCurrentName();
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
            case VALUE_NUMBER_FLOAT: return parser.getDoubleValue();
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_NULL: return NULL;
            default: throw new DeserializationException("not JSON: unexpected " + token + " at " + where(parser));
        }
    }

    private static String where(Object processor) {
        if (!(processor instanceof JsonParser)) return "?";
        JsonParser parser = (JsonParser) processor;
        return "line " + parser.getCurrentLocation().getLineNr() + ", column " + parser.getCurrentLocation().getColumnNr();
    }
}
