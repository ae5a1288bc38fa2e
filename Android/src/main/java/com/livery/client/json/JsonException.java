package com.livery.client.json;

/**
 * A JSON text that is not what its reader expects: not JSON this client reads (malformed, a duplicate key, nested too
 * deeply, bytes after the value), or a field missing, of another type or out of range. Each layer turns it into its
 * own error where it reads a document (the TUF layer into {@code DeserializationException}, the release layer into a
 * {@code MALFORMED} {@code LiveryException}), as python-tuf's deserializer wraps what {@code from_dict} raises.
 */
public class JsonException extends Exception {
    private static final long serialVersionUID = 1L;

    public JsonException(String message) {
        super(message);
    }

    public JsonException(String message, Throwable cause) {
        super(message, cause);
    }
}
