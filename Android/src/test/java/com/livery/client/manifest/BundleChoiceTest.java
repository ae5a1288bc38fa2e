package com.livery.client.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.LiveryException;
import com.livery.client.UnknownSelection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which bundles a fetch installs, from a small manifest written here. */
class BundleChoiceTest {
    private static String bundle(String id, String kind, String extra, String policy, String deps) {
        return "{\"access\":\"public\",\"dependencies\":[" + deps + "],\"id\":\"" + id + "\",\"kind\":\"" + kind + "\"" + extra
                + ",\"minimumClientVersion\":\"1.0.0\",\"path\":\"targets/x\",\"policy\":\"" + policy + "\",\"sha256\":\"" + "0".repeat(64) + "\",\"size\":1}";
    }

    private static DownloadManifest manifest() throws LiveryException {
        String json = "{\"bundles\":[" + String.join(",",
                bundle("core", "core", "", "essential", ""),
                bundle("locale.it", "locale", ",\"locale\":\"it\"", "essential", ""),
                bundle("locale.fr", "locale", ",\"locale\":\"fr\"", "on-demand", ""),
                bundle("locale.zh-Hant", "locale", ",\"locale\":\"zh-Hant\"", "on-demand", ""),
                bundle("tour.rome", "tour", ",\"subject\":\"rome\"", "on-demand", ""),
                bundle("tour.rome.it", "tour-language", ",\"subject\":\"rome\",\"locale\":\"it\"", "on-demand", "\"tour.rome\""),
                bundle("program.yoga", "program", ",\"subject\":\"yoga\"", "on-demand", "\"library.mats\""),
                bundle("library.mats", "library-pack", ",\"subject\":\"mats\"", "on-demand", ""))
                + "],\"format\":\"zip\",\"minimumClientVersion\":\"1.0.0\",\"release\":3,\"schemaVersion\":1,\"tenant\":\"t\"}";
        return DownloadManifest.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static final Selection NONE = new Selection(List.of(), List.of());

    @Test
    void regionalLocaleFallsBackToItsLanguageWithANote() throws Exception {
        BundleChoice c = BundleChoice.choose(manifest(), "fr_CA", List.of(), List.of(), NONE);
        assertEquals(List.of("core", "locale.fr", "locale.it"), c.wanted);
        assertEquals(List.of("locale 'fr_CA' is not in release 3: using 'fr'"), c.notes);
        assertEquals("zh-Hant", BundleChoice.closestLocale("ZH-hant-tw", List.of("zh-Hant", "zh")));
        assertNull(BundleChoice.closestLocale("de", List.of("fr")));
    }

    @Test
    void tourAudioFallsBackToTheDefaultLocaleAndDependenciesFollow() throws Exception {
        BundleChoice c = BundleChoice.choose(manifest(), "fr", List.of("rome"), List.of("yoga"), NONE);
        assertEquals(List.of("core", "library.mats", "locale.fr", "locale.it", "program.yoga", "tour.rome", "tour.rome.it"), c.wanted);
        assertTrue(c.notes.contains("tour 'rome' has no audio in 'fr': installing its 'it' audio"), c.notes.toString());
    }

    @Test
    void anUnknownTourFailsNamingWhatTheReleaseHas() throws Exception {
        UnknownSelection e = assertThrows(UnknownSelection.class, () -> BundleChoice.choose(manifest(), null, List.of("roma"), List.of(), NONE));
        assertEquals("release 3 has no tour 'roma' (its tours: rome)", e.getMessage());
    }

    @Test
    void aRememberedTourTheReleaseDroppedIsANote() throws Exception {
        BundleChoice c = BundleChoice.choose(manifest(), null, List.of(), List.of(), new Selection(List.of("venice"), List.of()));
        assertEquals(List.of("tour 'venice' is not in release 3 any more"), c.notes);
    }

    @Test
    void aManifestWithAnUnknownSchemaOrDuplicateIdIsRefused() {
        assertThrows(LiveryException.class, () -> DownloadManifest.parse("{\"schemaVersion\":2}".getBytes(StandardCharsets.UTF_8)));
        String dup = "{\"bundles\":[" + bundle("core", "core", "", "essential", "") + "," + bundle("core", "core", "", "essential", "")
                + "],\"format\":\"zip\",\"minimumClientVersion\":\"1.0.0\",\"release\":1,\"schemaVersion\":1,\"tenant\":\"t\"}";
        assertThrows(LiveryException.class, () -> DownloadManifest.parse(dup.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void clientVersionsCompareNumberByNumber() {
        assertTrue(ClientVersion.parse("1.10.0").compareTo(ClientVersion.parse("1.9.3")) > 0);
        assertNull(ClientVersion.parse("1.02.0"));
        assertNull(ClientVersion.parse("1.2"));
    }
}
