package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Map;
import java.util.Optional;

/** A target as a targets role signs it: its path, length, hashes and the repository's own description ({@code custom}). */
public final class TargetFile {
    private final String path;
    private final FileHashes file;
    private final Object custom;

    private TargetFile(String path, FileHashes file, Object custom) {
        this.path = path;
        this.file = file;
        this.custom = custom;
    }

    static TargetFile read(String path, Object value) throws JsonException {
        Map<String, Object> json = JsonValues.object(value, "target " + path);
        return new TargetFile(path, FileHashes.read(json, "target " + path, true), json.get("custom"));
    }

    /** The target path (TUF's name for it: {@code dir/name}). */
    public String path() { return path; }

    public long length() { return file.length().orElse(0L); }

    /** Algorithm → hex digest, as signed. */
    public Map<String, String> hashes() { return file.hashes(); }

    /** The signed length and hashes, for verifying bytes or a file. */
    public FileHashes file() { return file; }

    /** {@code custom} as parsed ({@link Json}'s values: a {@code Map} for an object), if the target has one. */
    public Optional<Object> custom() { return Optional.ofNullable(custom); }

    /**
     * The hash a consistent-snapshot repository prefixes the file's name with: SHA-256 when listed, else the first
     * algorithm in code-point order (a client may use any listed hash; Livery's Swift client chooses the same).
     */
    public String namingHash() {
        String sha256 = file.hashes().get("sha256");
        if (sha256 != null) return sha256;
        return file.hashes().keySet().stream().sorted(CanonicalJson::compareCodePoints).map(file.hashes()::get).findFirst().orElse("");
    }

    @Override public String toString() { return "TargetFile[" + path + ", " + length() + " bytes]"; }
}
