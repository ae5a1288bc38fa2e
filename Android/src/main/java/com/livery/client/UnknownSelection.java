package com.livery.client;

import java.util.List;

/** A fetch asked for a tour or program the release does not have (a typo, or content withdrawn): nothing changed. */
public final class UnknownSelection extends LiveryException {
    private static final long serialVersionUID = 1L;
    public final long release;
    /** "tour" or "program". */
    public final String noun;
    public final List<String> unknown, known;

    public UnknownSelection(long release, String noun, List<String> unknown, List<String> known) {
        super(Kind.REQUEST, describe(release, noun, unknown, known));
        this.release = release;
        this.noun = noun;
        this.unknown = List.copyOf(unknown);
        this.known = List.copyOf(known);
    }

    private static String describe(long release, String noun, List<String> unknown, List<String> known) {
        StringBuilder s = new StringBuilder("release " + release + " has no " + noun + " ");
        for (int i = 0; i < unknown.size(); i++) s.append(i == 0 ? "" : ", ").append('\'').append(unknown.get(i)).append('\'');
        s.append(known.isEmpty() ? " (it has none)" : " (its " + noun + "s: " + String.join(", ", known) + ")");
        return s.toString();
    }
}
