package com.livery.client.voucher;

import com.livery.client.json.Json;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a redeemed voucher gives this device: the token until {@code expires}, the bundles it unlocks, the code (to
 * renew the token), short-lived signed URLs and the content keys sealed for this device. Stored in
 * {@code access-tokens.json} in the layout the Swift client writes, so one cache serves both.
 */
public final class AccessGrant {
    public final VoucherSubject subject;
    public final String token, code;
    public final Instant expires, urlsExpire;
    public final List<String> bundles;
    public final Map<String, String> urls;
    public final List<WrappedContentKey> keys;

    AccessGrant(VoucherSubject subject, String token, Instant expires, List<String> bundles, String code, Map<String, String> urls,
                Instant urlsExpire, List<WrappedContentKey> keys) {
        this.subject = subject;
        this.token = token;
        this.expires = expires;
        this.bundles = List.copyOf(bundles);
        this.code = code;
        this.urls = Map.copyOf(urls);
        this.urlsExpire = urlsExpire;
        this.keys = List.copyOf(keys);
    }

    /** A server's redemption (or renewal) answer as a grant, keeping {@code code}. */
    static AccessGrant fromAnswer(JsonObject o, String code) throws JsonException {
        VoucherSubject subject = o.has("subject") ? VoucherSubject.parse(o.string("subject")) : new VoucherSubject("tour", o.string("tour"));
        if (subject == null) throw new JsonException(o.what() + ": \"subject\" is not <kind>:<id>");
        List<WrappedContentKey> keys = new ArrayList<>();
        if (o.has("keys")) for (Object item : o.list("keys")) keys.add(WrappedContentKey.read(item, o.what() + " key"));
        return new AccessGrant(subject, o.string("token"), date(o, "expires"), o.strings("bundles"), code, urls(o), o.has("urlsExpire") ? date(o, "urlsExpire") : null, keys);
    }

    /** A grant as stored by either client: keys as base64 of each key's JSON (the Swift client's Codable form). */
    static AccessGrant fromStored(JsonObject o) throws JsonException {
        VoucherSubject subject = o.has("subject") ? VoucherSubject.parse(o.string("subject")) : new VoucherSubject("tour", o.string("tour"));
        if (subject == null) throw new JsonException("a stored grant's subject is not <kind>:<id>");
        List<WrappedContentKey> keys = new ArrayList<>();
        if (o.has("keys")) {
            for (String encoded : o.strings("keys")) {
                byte[] json = Base64.getDecoder().decode(encoded);
                keys.add(WrappedContentKey.read(Json.parse(json), "a stored key"));
            }
        }
        return new AccessGrant(subject, o.string("token"), date(o, "expires"), o.strings("bundles"), o.optionalString("code"), urls(o),
                o.has("urlsExpire") ? date(o, "urlsExpire") : null, keys);
    }

    Map<String, Object> stored() {
        Map<String, Object> m = new TreeMap<>();
        m.put("subject", subject.toString());
        m.put("token", token);
        m.put("expires", expires.toString());
        m.put("bundles", new ArrayList<>(bundles));
        if (code != null) m.put("code", code);
        if (!urls.isEmpty()) m.put("urls", new TreeMap<>(urls));
        if (urlsExpire != null) m.put("urlsExpire", urlsExpire.toString());
        if (!keys.isEmpty()) {
            List<Object> encoded = new ArrayList<>();
            for (WrappedContentKey k : keys) {
                byte[] json = com.livery.client.json.Json.write(k.json());
                encoded.add(Base64.getEncoder().encodeToString(new String(json, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)));
            }
            m.put("keys", encoded);
        }
        return m;
    }

    /** The signed URL of {@code bundle}'s target file {@code file} ({@code <sha256>.<name>}), when the grant has one that works for another minute. */
    public String url(String bundle, String file, Instant now) {
        String text = urls.get(bundle);
        if (urlsExpire == null || !urlsExpire.isAfter(now.plusSeconds(60)) || text == null) return null;
        try {
            String path = URI.create(text).getPath();
            return path != null && path.substring(path.lastIndexOf('/') + 1).equals(file) ? text : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Map<String, String> urls(JsonObject o) throws JsonException {
        Map<String, String> out = new TreeMap<>();
        if (!o.has("urls")) return out;
        JsonObject u = o.object("urls");
        for (String key : u.keys()) out.put(key, u.string(key));
        return out;
    }

    private static Instant date(JsonObject o, String key) throws JsonException {
        try {
            return Instant.parse(o.string(key));
        } catch (DateTimeParseException e) {
            throw new JsonException(o.what() + ": \"" + key + "\" is not a UTC date");
        }
    }
}
