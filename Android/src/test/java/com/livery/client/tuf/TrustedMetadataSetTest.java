package com.livery.client.tuf;

import static com.livery.client.tuf.TestRepository.FAR;
import static com.livery.client.tuf.TestRepository.PAST;
import static com.livery.client.tuf.TestRepository.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.tuf.TestRepository.TestKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The trust state machine fed bytes: no server, no clock, no disk. */
class TrustedMetadataSetTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private TestKey root1, root2, timestampKey, snapshotKey, targetsKey, creatorKey, otherKey;
    private byte[] rootV1;

    @BeforeEach
    void keys() throws Exception {
        root1 = new TestKey();
        root2 = new TestKey();
        timestampKey = new TestKey();
        snapshotKey = new TestKey();
        targetsKey = new TestKey();
        creatorKey = new TestKey();
        otherKey = new TestKey();
        rootV1 = envelope(TestRepository.root(1, FAR, List.of(root1), 1, timestampKey, snapshotKey, targetsKey), root1);
    }

    private byte[] targets(long version, String expires) throws Exception {
        return envelope(TestRepository.targets(version, expires, Map.of("a.txt", TestRepository.utf8("a"))), targetsKey);
    }

    private byte[] snapshot(long version, String expires, Map<String, Long> roles) throws Exception {
        return envelope(TestRepository.snapshot(version, expires, roles), snapshotKey);
    }

    private byte[] timestamp(long version, String expires, long snapshotVersion, byte[] snapshot) throws Exception {
        return envelope(TestRepository.timestamp(version, expires, snapshotVersion, snapshot), timestampKey);
    }

    /** A set that trusts root v1, timestamp v1, snapshot v1 (targets v1) and targets v1. */
    private TrustedMetadataSet loaded() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] snapshot = snapshot(1, FAR, Map.of("targets", 1L));
        set.updateTimestamp(timestamp(1, FAR, 1, snapshot));
        set.updateSnapshot(snapshot, false);
        set.updateTargets(targets(1, FAR));
        return set;
    }

    @Test
    void trustsACompleteRepository() throws Exception {
        TrustedMetadataSet set = loaded();
        assertEquals(1, set.targets().get("targets").signed().version());
        assertTrue(set.targets().get("targets").signed().targets().containsKey("a.txt"));
    }

    @Test
    void walksARootRotationSignedByOldAndNewKeys() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        set.updateRoot(envelope(TestRepository.root(2, FAR, List.of(root2), 1, timestampKey, snapshotKey, targetsKey), root1, root2));
        assertEquals(2, set.root().signed().version());
    }

    @Test
    void refusesARootSignedOnlyByItsNewKeysOrOnlyByTheOldOnes() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        Map<String, Object> v2 = TestRepository.root(2, FAR, List.of(root2), 1, timestampKey, snapshotKey, targetsKey);
        assertThrows(BadSignatureException.class, () -> set.updateRoot(envelope(v2, root2)));
        assertThrows(BadSignatureException.class, () -> set.updateRoot(envelope(v2, root1)));
        assertEquals(1, set.root().signed().version());
    }

    @Test
    void refusesASkippedRootVersion() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] v3 = envelope(TestRepository.root(3, FAR, List.of(root1), 1, timestampKey, snapshotKey, targetsKey), root1);
        assertThrows(BadVersionNumberException.class, () -> set.updateRoot(v3));
    }

    @Test
    void countsAKeySigningTwiceOnlyOnceAndRefusesTheRepeatedKeyId() throws Exception {
        // Root v2 needs two root signatures; the same key listed twice is a threshold bypass.
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] v2 = envelope(TestRepository.root(2, FAR, List.of(root1, root2), 2, timestampKey, snapshotKey, targetsKey), root1, root2, root2);
        assertThrows(DeserializationException.class, () -> set.updateRoot(v2));
    }

    @Test
    void anExpiredFinalRootStopsTheRefreshAtTheTimestamp() throws Exception {
        byte[] expired = envelope(TestRepository.root(1, PAST, List.of(root1), 1, timestampKey, snapshotKey, targetsKey), root1);
        TrustedMetadataSet set = new TrustedMetadataSet(expired, NOW);
        byte[] snapshot = snapshot(1, FAR, Map.of("targets", 1L));
        assertThrows(ExpiredMetadataException.class, () -> set.updateTimestamp(timestamp(1, FAR, 1, snapshot)));
    }

    @Test
    void refusesTimestampRollbackAndKeepsAnEqualVersion() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] snapshot = snapshot(3, FAR, Map.of("targets", 1L));
        set.updateTimestamp(timestamp(2, FAR, 3, snapshot));
        assertThrows(BadVersionNumberException.class, () -> set.updateTimestamp(timestamp(1, FAR, 3, snapshot)));
        EqualVersionNumberException equal = assertThrows(EqualVersionNumberException.class, () -> set.updateTimestamp(timestamp(2, FAR, 4, snapshot)));
        assertEquals("EqualVersionNumberError", equal.pythonTufName());
        assertThrows(BadVersionNumberException.class, () -> set.updateTimestamp(timestamp(3, FAR, 2, snapshot)), "a snapshot rollback");
        assertEquals(2, set.timestamp().orElseThrow().signed().version());
    }

    @Test
    void anExpiredTimestampIsRecordedForRollbackProtectionYetRefused() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] snapshot = snapshot(1, FAR, Map.of("targets", 1L));
        assertThrows(ExpiredMetadataException.class, () -> set.updateTimestamp(timestamp(5, PAST, 1, snapshot)));
        assertEquals(5, set.timestamp().orElseThrow().signed().version());
        assertThrows(BadVersionNumberException.class, () -> set.updateTimestamp(timestamp(4, FAR, 1, snapshot)));
        set.updateTimestamp(timestamp(6, FAR, 1, snapshot));
    }

    @Test
    void refusesASnapshotThatIsNotTheOneTheTimestampHashed() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] signedFor = snapshot(1, FAR, Map.of("targets", 1L));
        byte[] other = snapshot(1, FAR, Map.of("targets", 2L));
        set.updateTimestamp(timestamp(1, FAR, 1, signedFor));
        assertThrows(LengthOrHashMismatchException.class, () -> set.updateSnapshot(other, false));
        // The client's own stored copy was checked when it was stored: only its version and signature count.
        set.updateSnapshot(other, true);
    }

    @Test
    void refusesASnapshotThatDropsOrRollsBackARole() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] first = snapshot(1, FAR, Map.of("targets", 2L, "creator", 1L));
        set.updateTimestamp(timestamp(1, FAR, 1, first));
        set.updateSnapshot(first, false);
        TrustedMetadataSet again = new TrustedMetadataSet(rootV1, NOW);
        again.updateTimestamp(timestamp(1, FAR, 1, first));
        again.updateSnapshot(first, true);
        RepositoryException dropped = assertThrows(RepositoryException.class, () -> again.updateSnapshot(snapshot(2, FAR, Map.of("targets", 2L)), true));
        assertSame(RepositoryException.class, dropped.getClass());
        assertThrows(BadVersionNumberException.class, () -> again.updateSnapshot(snapshot(2, FAR, Map.of("targets", 1L, "creator", 1L)), true));
    }

    @Test
    void refusesASnapshotOtherThanTheVersionTheTimestampNamesOrExpired() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] v1 = snapshot(1, FAR, Map.of("targets", 1L));
        set.updateTimestamp(timestamp(1, FAR, 2, v1));
        assertThrows(BadVersionNumberException.class, () -> set.updateSnapshot(v1, false));
        TrustedMetadataSet fresh = new TrustedMetadataSet(rootV1, NOW);
        byte[] expired = snapshot(1, PAST, Map.of("targets", 1L));
        fresh.updateTimestamp(timestamp(1, FAR, 1, expired));
        assertThrows(ExpiredMetadataException.class, () -> fresh.updateSnapshot(expired, false));
    }

    @Test
    void refusesTargetsOfAnotherVersionExpiredOrOfTheWrongType() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] snapshot = snapshot(1, FAR, Map.of("targets", 2L));
        set.updateTimestamp(timestamp(1, FAR, 1, snapshot));
        set.updateSnapshot(snapshot, false);
        assertThrows(BadVersionNumberException.class, () -> set.updateTargets(targets(1, FAR)));
        assertThrows(ExpiredMetadataException.class, () -> set.updateTargets(targets(2, PAST)));
        assertThrows(DeserializationException.class, () -> set.updateTargets(envelope(TestRepository.snapshot(2, FAR, Map.of()), targetsKey)));
        assertThrows(BadSignatureException.class, () -> set.updateTargets(envelope(TestRepository.targets(2, FAR, Map.of()), snapshotKey)));
        set.updateTargets(targets(2, FAR));
    }

    @Test
    void verifiesADelegatedRoleByItsDelegatorsKeysOnly() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        byte[] snapshot = snapshot(1, FAR, Map.of("targets", 1L, "creator", 1L));
        set.updateTimestamp(timestamp(1, FAR, 1, snapshot));
        set.updateSnapshot(snapshot, false);
        set.updateTargets(envelope(TestRepository.delegating(TestRepository.targets(1, FAR, Map.of()),
                List.<Object[]>of(new Object[] {"creator", creatorKey, List.of("media/*"), false})), targetsKey));
        Map<String, Object> creator = TestRepository.targets(1, FAR, Map.of("media/a.txt", TestRepository.utf8("a")));
        assertThrows(BadSignatureException.class, () -> set.updateDelegatedTargets(envelope(creator, otherKey), "creator", "targets"));
        assertThrows(RepositoryException.class, () -> set.updateDelegatedTargets(envelope(creator, creatorKey), "stranger", "targets"), "not in the snapshot");
        set.updateDelegatedTargets(envelope(creator, creatorKey), "creator", "targets");
        assertThrows(RepositoryException.class, () -> set.verifyDelegation("creator", null), "root's targets key did not sign it");
    }

    @Test
    void refusesCallsOutOfTheWorkflowsOrder() throws Exception {
        TrustedMetadataSet set = new TrustedMetadataSet(rootV1, NOW);
        assertThrows(IllegalStateException.class, () -> set.updateSnapshot(snapshot(1, FAR, Map.of()), false));
        TrustedMetadataSet full = loaded();
        assertThrows(IllegalStateException.class, () -> full.updateRoot(rootV1));
    }

    @Test
    void refusesATrustedRootNotSignedByItsOwnKeys() throws Exception {
        byte[] forged = envelope(TestRepository.root(1, FAR, List.of(root1), 1, timestampKey, snapshotKey, targetsKey), otherKey);
        assertThrows(BadSignatureException.class, () -> new TrustedMetadataSet(forged, NOW));
    }
}
