package com.livery.client.install;

import java.util.Optional;

/**
 * The TUF side of a fetch, as the release layer needs it: refresh the metadata (TUF 1.0.x §5.3–5.6, each verified file
 * kept in the cache), look targets up (delegations searched lazily, §5.6.7), and read a small target verified against
 * its signed length and hashes. {@link TufRepository} implements it with the TUF core's Updater.
 */
public interface TrustedRepository {
    void refresh() throws Exception;

    /** The target as signed, or empty when no trusted role vouches for it. */
    Optional<SignedTarget> target(String name) throws Exception;

    /** The target's bytes, downloaded and verified (the download manifest: bounded by its signed length). */
    byte[] read(SignedTarget target) throws Exception;

    /** The version of the root trusted now. */
    int rootVersion();
}
