package com.livery.client.release;

import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.Repo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A real S3 store for the object-storage tests: Ceph's RADOS Gateway started by {@code scripts/s3-server.sh} (about
 * 3 s) in a folder of its own, stopped by {@link #close()}. Buckets are made with SigV4-signed requests written here
 * (the test needs two: create a bucket, put its policy), so the tests depend on no S3 library.
 */
final class S3TestStore implements AutoCloseable {
    static final String REGION = "us-east-1";
    final Path folder;
    final String endpoint, accessKey, secretKey;

    private S3TestStore(Path folder, Map<String, String> values) {
        this.folder = folder;
        this.endpoint = values.get("AWS_ENDPOINT_URL");
        this.accessKey = values.get("AWS_ACCESS_KEY_ID");
        this.secretKey = values.get("AWS_SECRET_ACCESS_KEY");
    }

    /** Starts a store; fails (never skips) when Ceph is not installed: `make test-java` installs it. */
    static S3TestStore start(Path folder) throws IOException, InterruptedException {
        String script = Repo.root().resolve("scripts/s3-server.sh").toString();
        Files.createDirectories(folder);
        String out;
        try {
            // Any free port: 7480 (the script's default, RGW's own) may be a developer's store or another test's.
            out = LiveryTool.run(folder, Map.of("S3_SERVER_PORT", "0"), "bash", script, "start", folder.resolve("rgw").toString());
        } catch (IOException e) {
            throw new IOException("the S3 test store (Ceph RGW) did not start: run `make test-java`, which installs it: " + e.getMessage(), e);
        }
        // The script prints the variables Livery reads, as `export NAME=value` lines.
        Map<String, String> values = new HashMap<>();
        for (String line : LiveryTool.lines(out)) {
            if (!line.startsWith("export ")) continue;
            int equals = line.indexOf('=');
            if (equals > 0) values.put(line.substring("export ".length(), equals), line.substring(equals + 1));
        }
        if (!values.keySet().containsAll(List.of("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"))) {
            LiveryTool.run(folder, "bash", script, "stop", folder.resolve("rgw").toString());  // started, but unusable: not left running
            throw new IOException("s3-server.sh printed no endpoint: " + out);
        }
        return new S3TestStore(folder, values);
    }

    /** What `livery publish` and `livery serve --releases` need to reach the store, and nothing of the machine's own AWS files. */
    Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", accessKey, "AWS_SECRET_ACCESS_KEY", secretKey, "AWS_ENDPOINT_URL", endpoint, "AWS_REGION", REGION,
                "AWS_CONFIG_FILE", "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
    }

    /**
     * A new bucket that anyone may GET metadata, targets and release.json from, under {@code prefix}/{@code <tenant>}/,
     * with docs/operations.md's policy ("Making the bucket readable"); listing, writing and {@code protected/} stay private.
     */
    void makePublicBucket(String bucket, String prefix) throws Exception {
        send("PUT", "/" + bucket, "", new byte[0]);
        String resources = List.of("*/metadata/*", "*/targets/*", "*/release.json", "*/channels/*/metadata/*", "*/channels/*/targets/*", "*/channels/*/release.json")
                .stream().map(r -> "\"arn:aws:s3:::" + bucket + "/" + prefix + "/" + r + "\"").collect(Collectors.joining(","));
        String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":[\"s3:GetObject\"],\"Resource\":[" + resources + "]}]}";
        send("PUT", "/" + bucket, "policy=", policy.getBytes(StandardCharsets.UTF_8));
    }

    /** An unsigned GET's status, as an app without credentials gets it. */
    static int anonymousStatus(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** One SigV4-signed request (AWS Signature Version 4, header form, path-style addressing). */
    private void send(String method, String path, String query, byte[] body) throws Exception {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        String amzDate = now.format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'"));
        String day = amzDate.substring(0, 8);
        URI base = URI.create(endpoint);
        String host = base.getHost() + (base.getPort() > 0 ? ":" + base.getPort() : "");
        String payload = hex(MessageDigest.getInstance("SHA-256").digest(body));
        String signedHeaders = "host;x-amz-content-sha256;x-amz-date";
        String canonical = method + "\n" + path + "\n" + query + "\n" + "host:" + host + "\n" + "x-amz-content-sha256:" + payload + "\n"
                + "x-amz-date:" + amzDate + "\n\n" + signedHeaders + "\n" + payload;
        String scope = day + "/" + REGION + "/s3/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), day);
        key = hmac(key, REGION);
        key = hmac(key, "s3");
        key = hmac(key, "aws4_request");
        String authorization = "AWS4-HMAC-SHA256 Credential=" + accessKey + "/" + scope + ", SignedHeaders=" + signedHeaders + ", Signature=" + hex(hmac(key, toSign));
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + path + (query.isEmpty() ? "" : "?" + query)))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
                .header("x-amz-date", amzDate).header("x-amz-content-sha256", payload).header("Authorization", authorization).build();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() / 100 != 2) throw new IOException(method + " " + path + "?" + query + ": HTTP " + answer.statusCode() + ": " + answer.body());
    }

    private static byte[] hmac(byte[] key, String data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) out.append(String.format("%02x", b));
        return out.toString();
    }

    @Override
    public void close() throws Exception {
        LiveryTool.run(folder, "bash", Repo.root().resolve("scripts/s3-server.sh").toString(), "stop", folder.resolve("rgw").toString());
    }
}
