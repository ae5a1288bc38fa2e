package com.livery.client.tuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.livery.client.json.Json;
import com.livery.client.testsupport.Processes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Canonical JSON against securesystemslib's {@code encode_canonical} (what python-tuf verifies signatures over). */
class CanonicalJsonTest {
    /** JSON texts whose canonical forms differ from their text: key order, escapes, non-ASCII, astral keys, nesting. */
    private static final List<String> SAMPLES = List.of(
            "{\"b\":1,\"a\":[true,false,null],\"c\":{\"z\":\"x\",\"y\":-42}}",
            "{\"quote\":\"say \\\"hi\\\"\",\"back\\\\slash\":\"a\\\\b\",\"slash\":\"a/b\"}",
            "{\"line\":\"one\\ntwo\\tthree\\r\",\"bell\":\"\\u0007\",\"nul\":\"\\u0000\"}",
            "{\"é\":\"caf\\u00e9\",\"e\":\"日本語\",\"\\ud83d\\ude00\":\"astral\",\"\\uffff\":\"last BMP\",\"\\ue000\":\"private use\"}",
            "{\"big\":9007199254740993,\"neg\":-9223372036854775808,\"zero\":0,\"empty\":{},\"list\":[]}",
            "[{\"k\":[{\"b\":2,\"a\":1}]},\"x\",0]",
            "{\"signed\":{\"_type\":\"root\",\"keys\":{\"-----BEGIN\":{\"keyval\":{\"public\":\"-----BEGIN PUBLIC KEY-----\\nMFkw\\n-----END PUBLIC KEY-----\\n\"}}}}}");

    @Test
    void encodesAsSecuresystemslibDoes() throws Exception {
        StringBuilder input = new StringBuilder();
        for (String sample : SAMPLES) input.append(sample).append('\n');
        String script = "import sys, json, base64\n"
                + "from securesystemslib.formats import encode_canonical\n"
                + "for line in sys.stdin.read().splitlines():\n"
                + "    print(base64.b64encode(encode_canonical(json.loads(line)).encode('utf-8')).decode())\n";
        String[] expected = Processes.python(script, input.toString()).trim().split("\n");
        assertEquals(SAMPLES.size(), expected.length);
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < SAMPLES.size(); i++) {
            byte[] ours = CanonicalJson.encode(Json.parse(SAMPLES.get(i).getBytes(StandardCharsets.UTF_8)));
            byte[] theirs = Base64.getDecoder().decode(expected[i]);
            if (!java.util.Arrays.equals(ours, theirs)) {
                mismatches.add(SAMPLES.get(i) + "\n  ours:   " + new String(ours, StandardCharsets.UTF_8) + "\n  theirs: " + new String(theirs, StandardCharsets.UTF_8));
            }
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void sortsKeysByCodePointNotByUtf16Unit() throws Exception {
        // U+1F600 is the surrogate pair D83D DE00, which sorts before U+E000 as UTF-16 but after it as a code point.
        byte[] encoded = CanonicalJson.encode(Json.parse("{\"\\ud83d\\ude00\":1,\"\\ue000\":2}".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals("{\"\ue000\":2,\"\ud83d\ude00\":1}".getBytes(StandardCharsets.UTF_8), encoded);
    }

    @Test
    void refusesFloatsWhichCannotBeSigned() throws Exception {
        Object value = Json.parse("{\"version\":1.5}".getBytes(StandardCharsets.UTF_8));
        assertThrows(DeserializationException.class, () -> CanonicalJson.encode(value));
    }
}
