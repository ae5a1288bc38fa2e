package com.livery.client.voucher;

import com.livery.client.LiveryException;
import com.livery.client.digest.Hex;
import com.livery.client.json.Json;
import com.livery.client.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A tenant cache's voucher state, in the Swift client's files: {@code device-id} (128 random bits in hex),
 * {@code device-key} (the X25519 private key in hex) and {@code access-tokens.json} (grants by subject), each mode
 * 0600 where the file system has POSIX permissions: whoever reads them can download what they unlock.
 */
public final class AccessTokenStore {
    private final Path cache;

    public AccessTokenStore(Path cache) {
        this.cache = cache;
    }

    /** This device's id, made on first use and kept: redeeming again from this cache spends no new device place. */
    public synchronized String deviceId() throws LiveryException {
        Path file = cache.resolve("device-id");
        try {
            if (Files.exists(file)) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                if (!text.isEmpty() && text.length() <= 128) return text;
            }
            byte[] random = new byte[16];
            new SecureRandom().nextBytes(random);
            String id = Hex.encode(random);
            writePrivate(id.getBytes(StandardCharsets.UTF_8), file);
            return id;
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot keep the device id in " + file + ": " + e.getMessage(), e);
        }
    }

    /** This device's raw X25519 private key, made on first use: content keys are sealed for its public half. */
    public synchronized byte[] deviceKey() throws LiveryException {
        Path file = cache.resolve("device-key");
        try {
            if (Files.exists(file)) {
                byte[] raw = Hex.decode(Files.readString(file, StandardCharsets.UTF_8).trim());
                if (raw != null && raw.length == 32) return raw;
            }
            byte[] key = ContentCrypto.newPrivateKey();
            writePrivate(Hex.encode(key).getBytes(StandardCharsets.UTF_8), file);
            return key;
        } catch (IOException | GeneralSecurityException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot keep the device key in " + file + ": " + e.getMessage(), e);
        }
    }

    public byte[] devicePublicKey() throws LiveryException {
        try {
            return ContentCrypto.publicKey(deviceKey());
        } catch (GeneralSecurityException e) {
            throw new LiveryException(LiveryException.Kind.ACCESS, "the device key does not work: " + e.getMessage(), e);
        }
    }

    /** Grants by subject; an unreadable file counts as none. */
    public synchronized Map<VoucherSubject, AccessGrant> grants() {
        Map<VoucherSubject, AccessGrant> out = new HashMap<>();
        try {
            JsonObject all = JsonObject.parse(Files.readAllBytes(cache.resolve("access-tokens.json")), "access-tokens.json");
            for (String key : all.keys()) {
                AccessGrant g = AccessGrant.fromStored(all.object(key));
                AccessGrant other = out.get(g.subject);
                if (other == null || g.expires.isAfter(other.expires)) out.put(g.subject, g);
            }
        } catch (Exception e) {
            return new HashMap<>();
        }
        return out;
    }

    /** Adds or replaces the grant for its subject. */
    public synchronized void save(AccessGrant grant) throws LiveryException {
        Map<VoucherSubject, AccessGrant> all = grants();
        all.put(grant.subject, grant);
        write(all);
    }

    /** Forgets the grant of {@code subject} (the server refused its token). */
    public synchronized void remove(VoucherSubject subject) throws LiveryException {
        Map<VoucherSubject, AccessGrant> all = grants();
        if (all.remove(subject) != null) write(all);
    }

    private void write(Map<VoucherSubject, AccessGrant> grants) throws LiveryException {
        Map<String, Object> json = new TreeMap<>();
        for (AccessGrant g : grants.values()) json.put(g.subject.toString(), g.stored());
        Path file = cache.resolve("access-tokens.json");
        try {
            writePrivate(Json.write(json), file);
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes a file readable by its owner only, replacing the old one in one rename. */
    static void writePrivate(byte[] data, Path file) throws IOException {
        Path temporary = file.resolveSibling("." + file.getFileName() + "." + UUID.randomUUID());
        try {
            try {
                Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                // A file system without POSIX permissions (some Android storage): the app's private folder is the protection there.
                Files.createFile(temporary);
            }
            Files.write(temporary, data);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
