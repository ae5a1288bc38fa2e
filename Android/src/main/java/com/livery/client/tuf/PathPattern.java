package com.livery.client.tuf;

import java.util.ArrayList;
import java.util.List;

/**
 * A delegation's path pattern against a target path, as the TUF specification and python-tuf match them: the same
 * number of {@code /}-separated parts, each matched case-sensitively as Python's {@code fnmatch.fnmatchcase} does
 * ({@code *} and {@code ?} never cross a {@code /}; {@code [...]} and {@code [!...]} sets; {@code ^} and {@code [:}
 * are literal; {@code ?} is one code point). Hand-written because clients must agree on which role signs a path,
 * and neither {@code java.nio}'s glob nor a regular expression reads sets exactly as Python does.
 */
final class PathPattern {
    private static final int STAR = -1, ANY = -2, SET = -3;

    /** One compiled token: a code point, {@link #STAR}, {@link #ANY} or {@link #SET} (with its members). */
    private static final class Token {
        final int kind;
        final boolean negated;
        final List<int[]> ranges;

        Token(int kind, boolean negated, List<int[]> ranges) {
            this.kind = kind;
            this.negated = negated;
            this.ranges = ranges;
        }

        boolean matches(int c) {
            if (kind == STAR || kind == ANY) return true;
            if (kind != SET) return kind == c;
            boolean in = false;
            for (int[] r : ranges) in |= r[0] <= c && c <= r[1];
            return in != negated;
        }
    }

    private PathPattern() {}

    static boolean matches(String pattern, String target) {
        String[] patternParts = pattern.split("/", -1), targetParts = target.split("/", -1);
        if (patternParts.length != targetParts.length) return false;
        for (int i = 0; i < patternParts.length; i++) {
            if (!matchPart(compile(patternParts[i]), targetParts[i].codePoints().toArray())) return false;
        }
        return true;
    }

    private static List<Token> compile(String text) {
        int[] p = text.codePoints().toArray();
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < p.length) {
            int c = p[i++];
            if (c == '*') {
                if (tokens.isEmpty() || tokens.get(tokens.size() - 1).kind != STAR) tokens.add(new Token(STAR, false, null));
            } else if (c == '?') {
                tokens.add(new Token(ANY, false, null));
            } else if (c == '[') {
                // The set's end: a leading '!' and a first ']' belong to the set; with no end, '[' is literal.
                int j = i;
                if (j < p.length && p[j] == '!') j++;
                if (j < p.length && p[j] == ']') j++;
                while (j < p.length && p[j] != ']') j++;
                if (j >= p.length) {
                    tokens.add(new Token('[', false, null));
                    continue;
                }
                int start = i;
                i = j + 1;
                boolean negated = p[start] == '!';
                if (negated) start++;
                List<int[]> ranges = new ArrayList<>();
                int k = start;
                while (k < j) {
                    if (k + 2 < j && p[k + 1] == '-') {
                        // A reversed range (z-a) matches nothing, as in Python.
                        if (p[k] <= p[k + 2]) ranges.add(new int[] {p[k], p[k + 2]});
                        k += 3;
                    } else {
                        ranges.add(new int[] {p[k], p[k]});
                        k += 1;
                    }
                }
                tokens.add(new Token(SET, negated, ranges));
            } else {
                tokens.add(new Token(c, false, null));
            }
        }
        return tokens;
    }

    /** Greedy matching with one remembered star to go back to. */
    private static boolean matchPart(List<Token> tokens, int[] name) {
        int t = 0, n = 0, star = -1, starName = 0;
        while (n < name.length) {
            if (t < tokens.size() && tokens.get(t).kind == STAR) {
                star = t;
                starName = n;
                t++;
            } else if (t < tokens.size() && tokens.get(t).matches(name[n])) {
                t++;
                n++;
            } else if (star >= 0) {
                t = star + 1;
                starName++;
                n = starName;
            } else {
                return false;
            }
        }
        while (t < tokens.size() && tokens.get(t).kind == STAR) t++;
        return t == tokens.size();
    }
}
