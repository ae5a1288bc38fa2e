package com.livery.client.manifest;

import com.livery.client.files.FileErrors;
import com.livery.client.json.Json;
import com.livery.client.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** The tours and programs a cache keeps installed across updates ({@code selection.json}), changed by adding and removing them. */
public final class Selection {
    public final SortedSet<String> tours, programs;

    public Selection(Collection<String> tours, Collection<String> programs) {
        this.tours = new TreeSet<>(tours);
        this.programs = new TreeSet<>(programs);
    }

    public static Path file(Path cache) {
        return cache.resolve("selection.json");
    }

    /** The remembered selection; a missing or unreadable file is an empty one, as the Swift client reads it. */
    public static Selection load(Path cache) {
        try {
            JsonObject o = JsonObject.parse(Files.readAllBytes(file(cache)), "selection.json");
            return new Selection(names(o.raw("tours")), names(o.raw("programs")));
        } catch (Exception e) {
            return new Selection(List.of(), List.of());
        }
    }

    private static List<String> names(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof List) for (Object item : (List<?>) value) if (item instanceof String) out.add((String) item);
        return out;
    }

    public Selection applying(Collection<String> addTours, Collection<String> removeTours, Collection<String> addPrograms, Collection<String> removePrograms) {
        Selection s = new Selection(tours, programs);
        s.tours.addAll(addTours);
        s.tours.removeAll(removeTours);
        s.programs.addAll(addPrograms);
        s.programs.removeAll(removePrograms);
        return s;
    }

    /** Writes the selection (the same bytes as the Swift client) to {@code file}, a staged copy the install renames into place. */
    public void write(Path file) throws IOException {
        Map<String, Object> json = new TreeMap<>();
        json.put("tours", new ArrayList<>(tours));
        json.put("programs", new ArrayList<>(programs));
        try {
            Files.write(file, Json.write(json));
        } catch (IOException e) {
            throw FileErrors.naming(file, e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Selection && ((Selection) o).tours.equals(tours) && ((Selection) o).programs.equals(programs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tours, programs);
    }
}
