package com.livery.client.tuf;

import java.util.Optional;

/**
 * Where a client keeps the metadata it trusts, under unversioned role names: {@code load} gives the bytes kept for
 * a role, {@code save} replaces them whole (a power cut must leave the old file or the new one).
 */
public interface MetadataStore {
    Optional<byte[]> load(String role) throws StorageException;

    void save(String role, byte[] data) throws StorageException;
}
