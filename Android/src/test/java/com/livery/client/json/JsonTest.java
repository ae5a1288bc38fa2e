package com.livery.client.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The one JSON reader both layers use: what it refuses, so that two readers of one signed file never differ. */
class JsonTest {
    @Test
    void parserRefusesDuplicateKeysTrailingDataAndDeepNesting() throws Exception {
        assertThrows(JsonException.class, () -> Json.parse(bytes("{\"a\":1,\"a\":2}")));
        assertThrows(JsonException.class, () -> Json.parse(bytes("{} {}")));
        assertThrows(JsonException.class, () -> Json.parse(bytes("[".repeat(100).concat("]".repeat(100)))));
        assertThrows(JsonException.class, () -> Json.parse(new byte[] {'"', (byte) 0xC3, '"'}));
        assertThrows(JsonException.class, () -> Json.parse(new byte[0]));
        // Integers are exact: a fraction or an exponent is not one, nor is a number past 64 bits.
        assertEquals(7L, JsonValues.integer(Json.parse(bytes("7")), "n"));
        assertThrows(JsonException.class, () -> JsonValues.integer(Json.parse(bytes("1.0")), "n"));
        assertThrows(JsonException.class, () -> JsonObject.parse(bytes("{\"size\":1e3}"), "d").integer("size"));
        assertThrows(JsonException.class, () -> JsonObject.parse(bytes("{\"size\":18446744073709551616}"), "d").integer("size"));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
