package com.livery.client.http;

import java.util.Objects;

/** One HTTP header field as sent or received. */
public final class Header {
    private final String name;
    private final String value;

    public Header(String name, String value) {
        this.name = Objects.requireNonNull(name, "name");
        this.value = Objects.requireNonNull(value, "value");
    }

    public String name() { return name; }

    public String value() { return value; }

    @Override public boolean equals(Object other) {
        return other instanceof Header && ((Header) other).name.equals(name) && ((Header) other).value.equals(value);
    }

    @Override public int hashCode() { return Objects.hash(name, value); }

    @Override public String toString() { return name + ": " + value; }
}
