package com.livery.client.tuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.json.Json;
import com.livery.client.json.JsonException;
import com.livery.client.testsupport.Processes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Signature checks of every key type against keys and signatures securesystemslib makes at test time (its
 * {@code CryptoSigner}, what python-tuf repositories sign with), each with a signature that must fail.
 */
class KeyTest {
    private static final String MESSAGE = "{\"_type\":\"targets\",\"version\":7}";
    private static List<?> samples;

    @BeforeAll
    static void signWithSecuresystemslib() throws Exception {
        String script = "import json, sys\n"
                + "from securesystemslib.signer import CryptoSigner\n"
                + "from cryptography.hazmat.primitives.asymmetric import ec\n"
                + "from securesystemslib.signer import SSlibKey\n"
                + "message = sys.argv[1].encode()\n"
                + "out = []\n"
                + "for name, signer in [('ed25519', CryptoSigner.generate_ed25519()), ('ecdsa', CryptoSigner.generate_ecdsa()), ('rsa', CryptoSigner.generate_rsa())]:\n"
                + "    out.append({'name': name, 'key': signer.public_key.to_dict(), 'sig': signer.sign(message).signature})\n"
                + "# A P-384 key under the P-256 scheme: the scheme names the curve, so it must never verify.\n"
                + "from cryptography.hazmat.primitives import hashes, serialization\n"
                + "p384 = ec.generate_private_key(ec.SECP384R1())\n"
                + "pem = p384.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()\n"
                + "sig = p384.sign(message, ec.ECDSA(hashes.SHA256())).hex()\n"
                + "out.append({'name': 'p384', 'key': {'keytype': 'ecdsa', 'scheme': 'ecdsa-sha2-nistp256', 'keyval': {'public': pem}}, 'sig': sig})\n"
                + "print(json.dumps(out))\n";
        samples = (List<?>) Json.parse(Processes.python(script, null, MESSAGE).getBytes(StandardCharsets.UTF_8));
    }

    private static Key key(String name) throws JsonException {
        return Key.read(sample(name).get("key"), name);
    }

    private static Map<?, ?> sample(String name) {
        return samples.stream().map(s -> (Map<?, ?>) s).filter(s -> s.get("name").equals(name)).findFirst().orElseThrow();
    }

    private static String flipped(String hex) {
        char last = hex.charAt(hex.length() - 1);
        return hex.substring(0, hex.length() - 1) + (last == '0' ? '1' : '0');
    }

    @Test
    void verifiesEachKeyTypeAndRefusesAWrongSignature() throws Exception {
        byte[] message = MESSAGE.getBytes(StandardCharsets.UTF_8);
        byte[] other = (MESSAGE + " ").getBytes(StandardCharsets.UTF_8);
        for (String name : List.of("ed25519", "ecdsa", "rsa")) {
            Key key = key(name);
            String sig = (String) sample(name).get("sig");
            assertTrue(key.isSupported(), name);
            assertTrue(key.verifies(sig, message), name + " must verify securesystemslib's signature");
            assertFalse(key.verifies(sig, other), name + " must refuse its signature over other bytes");
            assertFalse(key.verifies(flipped(sig), message), name + " must refuse a changed signature");
            assertFalse(key.verifies("not hex", message), name);
        }
    }

    @Test
    void keysOfOneTypeNeverVerifyAnothersSignatures() throws Exception {
        byte[] message = MESSAGE.getBytes(StandardCharsets.UTF_8);
        assertFalse(key("ecdsa").verifies((String) sample("rsa").get("sig"), message));
        assertFalse(key("ed25519").verifies((String) sample("ecdsa").get("sig"), message));
    }

    @Test
    void aP384KeyUnderTheP256SchemeIsUnsupported() throws Exception {
        Key key = key("p384");
        assertFalse(key.isSupported());
        assertFalse(key.verifies((String) sample("p384").get("sig"), MESSAGE.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void unknownSchemesAndUndecodableKeysAreKeptButNeverVerify() throws Exception {
        Key unknown = Key.read(Map.of("keytype", "ed448", "scheme", "ed448", "keyval", Map.of("public", "00")), "k");
        Key shortEd = Key.read(Map.of("keytype", "ed25519", "scheme", "ed25519", "keyval", Map.of("public", "abcd")), "k");
        assertFalse(unknown.isSupported());
        assertFalse(shortEd.isSupported());
        assertEquals("ed448", unknown.keyType());
    }
}
