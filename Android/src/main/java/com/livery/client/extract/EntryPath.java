package com.livery.client.extract;

import java.util.ArrayList;
import java.util.List;

/** Entry names made safe: relative, normalised, or refused (the same rule for zip, tar.zst and file indexes). */
public final class EntryPath {
    private EntryPath() {}

    /** The safe relative path of {@code name}: no leading '/', backslash or NUL, no '..'; '.' and empty components dropped. */
    public static String normalise(String name) throws UnsafeArchive {
        if (name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.indexOf('\0') >= 0) {
            throw new UnsafeArchive("entry '" + name + "' has an absolute or unsafe path");
        }
        List<String> parts = new ArrayList<>();
        for (String component : name.split("/")) {
            if (component.isEmpty() || component.equals(".")) continue;
            if (component.equals("..")) throw new UnsafeArchive("entry '" + name + "' climbs out of the folder ('..')");
            parts.add(component);
        }
        if (parts.isEmpty()) throw new UnsafeArchive("entry '" + name + "' names no file");
        return String.join("/", parts);
    }

    static UnsafeArchive notRegular(String archive, String name) {
        return new UnsafeArchive(archive + ": '" + name + "' is not a regular file (links and devices are refused)");
    }
}
