package com.livery.client.manifest;

import com.livery.client.UnknownSelection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The bundles of a release a fetch installs (docs/client.md, "Which bundles"): the essential ones, the
 * user's locale (with BCP 47 fallback), the tours (with their audio in that locale) and programs asked for
 * or remembered, and what those depend on; plus the notes of what was chosen instead of what was asked.
 */
public final class BundleChoice {
    /** Bundle ids, sorted. */
    public final List<String> wanted;
    public final List<String> notes;

    private BundleChoice(List<String> wanted, List<String> notes) {
        this.wanted = List.copyOf(wanted);
        this.notes = List.copyOf(notes);
    }

    /**
     * @param locale the user's locale, or null for the release's default
     * @param tours, programs what is asked for now (including what is being added)
     * @param remembered the cache's remembered selection (already with this request's additions and removals)
     */
    public static BundleChoice choose(DownloadManifest manifest, String locale, Collection<String> tours, Collection<String> programs,
                                      Selection remembered) throws UnknownSelection {
        List<DownloadManifest.Bundle> bundles = manifest.bundles;
        long release = manifest.release;
        List<String> notes = new ArrayList<>();
        Set<String> knownTours = subjects(bundles, "tour"), knownPrograms = subjects(bundles, "program");
        refuseUnknown(release, "tour", tours, knownTours);
        refuseUnknown(release, "program", programs, knownPrograms);
        for (String gone : difference(remembered.tours, knownTours)) notes.add("tour '" + gone + "' is not in release " + release + " any more");
        for (String gone : difference(remembered.programs, knownPrograms)) notes.add("program '" + gone + "' is not in release " + release + " any more");
        Set<String> chosenTours = new TreeSet<>(tours);
        chosenTours.addAll(remembered.tours);
        chosenTours.retainAll(knownTours);
        Set<String> chosenPrograms = new TreeSet<>(programs);
        chosenPrograms.addAll(remembered.programs);
        chosenPrograms.retainAll(knownPrograms);

        List<String> locales = new ArrayList<>();
        String defaultLocale = null;
        for (DownloadManifest.Bundle b : bundles) {
            if (!b.kind.equals("locale") || b.locale == null) continue;
            locales.add(b.locale);
            if (defaultLocale == null && b.isEssential()) defaultLocale = b.locale;
        }
        String used = defaultLocale;
        if (locale != null) {
            String found = closestLocale(locale, locales);
            if (found != null) {
                used = found;
                if (!found.equals(locale)) notes.add("locale '" + locale + "' is not in release " + release + ": using '" + found + "'");
            } else {
                notes.add("locale '" + locale + "' is not in release " + release + " (it has " + String.join(", ", new TreeSet<>(locales))
                        + "): using '" + (defaultLocale == null ? "none" : defaultLocale) + "'");
            }
        }
        Set<String> wanted = new TreeSet<>();
        Map<String, DownloadManifest.Bundle> byId = new HashMap<>();
        for (DownloadManifest.Bundle b : bundles) {
            byId.putIfAbsent(b.id, b);
            String subject = b.subject == null ? "" : b.subject;
            if (b.isEssential()) wanted.add(b.id);
            if (b.kind.equals("locale") && b.locale != null && b.locale.equals(used)) wanted.add(b.id);
            if (b.kind.equals("program") && chosenPrograms.contains(subject)) wanted.add(b.id);
            if (b.kind.equals("tour") && chosenTours.contains(subject)) wanted.add(b.id);
        }
        // Each tour's audio: in the locale, else in the default locale, else in the first language the tour has.
        for (String tour : chosenTours) {
            List<DownloadManifest.Bundle> audio = new ArrayList<>();
            List<String> languages = new ArrayList<>();
            for (DownloadManifest.Bundle b : bundles) {
                if (b.kind.equals("tour-language") && tour.equals(b.subject)) {
                    audio.add(b);
                    if (b.locale != null) languages.add(b.locale);
                }
            }
            if (audio.isEmpty()) continue;
            String chosen = used == null ? null : closestLocale(used, languages);
            if (chosen == null && defaultLocale != null) chosen = closestLocale(defaultLocale, languages);
            if (chosen == null && !languages.isEmpty()) chosen = new TreeSet<>(languages).first();
            if (chosen == null) continue;
            for (DownloadManifest.Bundle b : audio) {
                if (chosen.equals(b.locale)) {
                    wanted.add(b.id);
                    break;
                }
            }
            if (used != null && !chosen.equals(used) && closestLocale(used, languages) == null) {
                notes.add("tour '" + tour + "' has no audio in '" + used + "': installing its '" + chosen + "' audio");
            }
        }
        Deque<String> queue = new ArrayDeque<>(wanted);
        while (!queue.isEmpty()) {
            DownloadManifest.Bundle b = byId.get(queue.pop());
            if (b == null) continue;
            for (String dependency : b.dependencies) if (wanted.add(dependency)) queue.push(dependency);
        }
        return new BundleChoice(new ArrayList<>(wanted), notes);
    }

    /**
     * {@code asked} if {@code available} has it, else its nearest parent by BCP 47 truncation ({@code fr-CA} to {@code fr},
     * {@code zh-Hant-TW} to {@code zh-Hant} to {@code zh}), compared without regard to case or {@code _}/{@code -}; null when none matches.
     */
    public static String closestLocale(String asked, List<String> available) {
        List<String> parts = new ArrayList<>(List.of(key(asked).split("-")));
        parts.removeIf(String::isEmpty);
        while (!parts.isEmpty()) {
            String candidate = String.join("-", parts);
            for (String tag : available) if (key(tag).equals(candidate)) return tag;
            parts.remove(parts.size() - 1);
        }
        return null;
    }

    private static String key(String tag) {
        return tag.replace('_', '-').toLowerCase(Locale.ROOT);
    }

    private static Set<String> subjects(List<DownloadManifest.Bundle> bundles, String kind) {
        Set<String> out = new TreeSet<>();
        for (DownloadManifest.Bundle b : bundles) if (b.kind.equals(kind) && b.subject != null) out.add(b.subject);
        return out;
    }

    private static Set<String> difference(Collection<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }

    private static void refuseUnknown(long release, String noun, Collection<String> asked, Set<String> known) throws UnknownSelection {
        Set<String> unknown = difference(asked, known);
        if (!unknown.isEmpty()) throw new UnknownSelection(release, noun, new ArrayList<>(unknown), new ArrayList<>(known));
    }
}
