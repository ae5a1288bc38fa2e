package com.livery.client.voucher;

import java.util.Objects;

/** What a voucher unlocks, written {@code <kind>:<id>}: a tour, program, library item or library pack. A bare id is a tour. */
public final class VoucherSubject {
    public final String kind, id;

    public VoucherSubject(String kind, String id) {
        this.kind = kind;
        this.id = id;
    }

    /** Parses {@code <kind>:<id>} or a bare id; null for an unknown kind or an empty id. */
    public static VoucherSubject parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) return text.isEmpty() ? null : new VoucherSubject("tour", text);
        String kind = text.substring(0, colon), id = text.substring(colon + 1);
        if (!(kind.equals("tour") || kind.equals("program") || kind.equals("library-item") || kind.equals("pack")) || id.isEmpty() || id.contains(":")) return null;
        return new VoucherSubject(kind, id);
    }

    /** The subject a bundle belongs to, from its manifest entry: tours and their languages by tour, a program by id, library bundles by id. */
    public static VoucherSubject of(String bundleId, String bundleKind, String subject) {
        switch (bundleKind) {
            case "tour": case "tour-language": return subject == null ? null : new VoucherSubject("tour", subject);
            case "program": return subject == null ? null : new VoucherSubject("program", subject);
            case "library-pack":
                if (bundleId.startsWith("library-item.")) return new VoucherSubject("library-item", bundleId.substring("library-item.".length()));
                if (bundleId.startsWith("library.")) return new VoucherSubject("pack", bundleId.substring("library.".length()));
                return null;
            default: return null;
        }
    }

    /** How messages name the kind. */
    public String noun() {
        switch (kind) {
            case "library-item": return "library item";
            case "pack": return "library pack";
            default: return kind;
        }
    }

    @Override public String toString() { return kind + ":" + id; }
    @Override public boolean equals(Object o) { return o instanceof VoucherSubject && o.toString().equals(toString()); }
    @Override public int hashCode() { return Objects.hash(kind, id); }
}
