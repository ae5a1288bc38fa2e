package com.livery.client.voucher;

import com.livery.client.LiveryException;
import com.livery.client.http.HttpAnswer;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.HttpRequest;
import com.livery.client.http.Urls;
import com.livery.client.json.Json;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;

/** Talks to a voucher server ({@code <server>/<tenant>}): redeems codes and renews grants with their token (docs/vouchers.md). */
public final class VoucherClient {
    private static final long ANSWER_LIMIT = 64 << 10;
    private final URI base;
    private final HttpFetcher http;

    /** @param base the tenant's voucher server, {@code <server>/<tenant>} (no trailing slash needed) */
    public VoucherClient(URI base, HttpFetcher http) {
        this.base = Urls.asFolder(base);
        this.http = http;
    }

    public URI base() { return base; }

    /** Redeems {@code code} for {@code device}, sending this device's X25519 public key so content keys come sealed for it. */
    public AccessGrant redeem(String code, String device, byte[] devicePublicKey) throws LiveryException {
        String shown = shown(code);
        Map<String, Object> body = new TreeMap<>();
        body.put("code", code);
        body.put("device", device);
        if (devicePublicKey != null) body.put("deviceKey", Base64Url.encode(devicePublicKey));
        HttpAnswer answer = post("vouchers/redeem", body, null, "voucher " + shown);
        switch (answer.status()) {
            case 200: break;
            case 403: throw refused("voucher " + shown + " is not valid: unknown, revoked or expired (check the code)");
            case 409: throw refused("voucher " + shown + " has already been redeemed on as many devices as it allows");
            case 429: throw refused("voucher " + shown + ": too many failed attempts from this address; try again in a minute");
            case 404: throw refused("voucher " + shown + ": the server has no voucher redemption for this tenant (" + base + "vouchers/redeem answered 404)");
            default: throw refused("voucher " + shown + ": the server answered HTTP " + answer.status());
        }
        try {
            return AccessGrant.fromAnswer(JsonObject.parse(answer.body(), "the redemption answer"), code);
        } catch (JsonException e) {
            throw refused("voucher " + shown + ": the server's answer is not a grant");
        }
    }

    /** Fresh signed URLs and sealed keys for a grant, with its token. Throws {@link VoucherAccessException} when the token is refused. */
    public AccessGrant renew(AccessGrant grant, byte[] devicePublicKey) throws LiveryException {
        Map<String, Object> body = new TreeMap<>();
        if (devicePublicKey != null) body.put("deviceKey", Base64Url.encode(devicePublicKey));
        HttpAnswer answer = post("vouchers/access", body, grant.token, "fresh download URLs");
        if (answer.status() == 401 || answer.status() == 403) throw new VoucherAccessException("vouchers/access", answer.status(), true);
        if (answer.status() != 200) throw refused("the voucher server answered HTTP " + answer.status() + " when asked for fresh download URLs");
        try {
            return AccessGrant.fromAnswer(JsonObject.parse(answer.body(), "the renewal answer"), grant.code);
        } catch (JsonException e) {
            throw refused("the voucher server's answer is not a grant");
        }
    }

    private HttpAnswer post(String path, Map<String, Object> body, String bearer, String what) throws LiveryException {
        HttpRequest request = HttpRequest.post(base.resolve(path), "application/json", Json.write(body));
        if (bearer != null) request = request.withHeader("Authorization", "Bearer " + bearer);
        try {
            return http.fetch(request, ANSWER_LIMIT);
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.ACCESS, what + ": " + e.getMessage(), e);
        }
    }

    private static LiveryException refused(String message) {
        return new LiveryException(LiveryException.Kind.ACCESS, message);
    }

    /** A code as messages show it: its first group only, so that logs do not leak it. */
    public static String shown(String code) {
        StringBuilder digits = new StringBuilder();
        for (char c : code.toUpperCase(java.util.Locale.ROOT).toCharArray()) if (Character.isLetterOrDigit(c)) digits.append(c);
        return digits.length() > 4 ? digits.substring(0, 4) + "-…" : "'" + code + "'";
    }
}
