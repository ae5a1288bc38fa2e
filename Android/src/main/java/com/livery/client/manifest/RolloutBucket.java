package com.livery.client.manifest;

import com.livery.client.digest.Sha256;
import java.nio.charset.StandardCharsets;

/** A device's staged-rollout bucket (docs/client.md#staged-rollout): the same number every client computes for the same install. */
public final class RolloutBucket {
    public static final int SCALE = 10_000;
    /** The staged release's manifest target. */
    public static final String STAGED_PREFIX = "staged/";

    private RolloutBucket() {}

    /** {@code UInt64(first 8 bytes of SHA-256("livery-rollout-v1\n" + tenant + "\n" + channel + "\n" + release + "\n" + installId)) mod 10000}. */
    public static int bucket(String tenant, String channel, long release, String installId) {
        String message = "livery-rollout-v1\n" + tenant + "\n" + channel + "\n" + release + "\n" + installId;
        byte[] digest = Sha256.digest().digest(message.getBytes(StandardCharsets.UTF_8));
        long value = 0;
        for (int i = 0; i < 8; i++) value = value << 8 | (digest[i] & 0xFF);
        // An unsigned 64-bit value: Long.remainderUnsigned keeps the top bit as magnitude, not sign.
        return (int) Long.remainderUnsigned(value, SCALE);
    }

    /** Whether the install takes a staged release rolled out to {@code basisPoints} of devices. */
    public static boolean takesStaged(String tenant, String channel, long release, String installId, int basisPoints) {
        return bucket(tenant, channel, release, installId) < basisPoints;
    }
}
