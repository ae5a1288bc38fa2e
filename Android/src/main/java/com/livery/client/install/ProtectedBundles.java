package com.livery.client.install;

import com.livery.client.FetchRequest;
import com.livery.client.LiveryException;
import com.livery.client.manifest.BundleEncryption;
import com.livery.client.manifest.DownloadManifest;
import com.livery.client.voucher.AccessGrant;
import com.livery.client.voucher.AccessTokenStore;
import com.livery.client.voucher.VoucherAccessException;
import com.livery.client.voucher.VoucherClient;
import com.livery.client.voucher.VoucherSubject;
import com.livery.client.voucher.WrappedContentKey;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The grants and content keys of voucher bundles, as LiveryClient finds them (docs/client.md, "Protected tours"). */
public final class ProtectedBundles {
    private ProtectedBundles() {}

    /**
     * The grant for each wanted voucher bundle that must be downloaded or decrypted: a stored grant for its subject,
     * renewed with its code when it has expired, asked for fresh URLs or keys with its token when it lacks them. A
     * protected subject without one stops the fetch here, before any download, naming it.
     */
    public static Map<String, AccessGrant> grants(List<String> wanted, DownloadManifest manifest, Map<String, WantedBundle> signed, FetchRequest request,
                                                  AccessTokenStore access, VoucherClient server) throws LiveryException {
        Map<VoucherSubject, AccessGrant> grants = access.grants();
        Map<String, AccessGrant> out = new HashMap<>();
        for (String id : wanted) {
            DownloadManifest.Bundle bundle = manifest.bundle(id);
            WantedBundle info = signed.get(id);
            if (bundle == null || !bundle.isProtected() || info == null) continue;
            boolean needsDownload = !Files.exists(request.cache.resolve("downloads").resolve(info.sha256));
            if (!needsDownload && bundle.encryption == null) continue;
            VoucherSubject subject = VoucherSubject.of(id, bundle.kind, bundle.subject);
            if (subject == null) subject = new VoucherSubject("tour", bundle.subject != null ? bundle.subject : id);
            AccessGrant grant = grants.get(subject);
            if (grant != null && !grant.expires.isAfter(request.now) && grant.code != null) {
                // Same device, same code: the server hands out a fresh token without spending a place.
                try {
                    grant = server.redeem(grant.code, access.deviceId(), access.devicePublicKey());
                    access.save(grant);
                    grants.put(subject, grant);
                } catch (LiveryException ignored) {
                    // The expired grant is refused just below, with the message that says what to do.
                }
            }
            if (grant == null || !grant.expires.isAfter(request.now)) {
                throw new LiveryException(LiveryException.Kind.ACCESS, subject.noun() + " '" + subject.id + "' of " + request.tenant
                        + " is protected by a voucher and this device has no valid access token: redeem a voucher code for it (FetchRequest.vouchers)");
            }
            final AccessGrant current = grant;
            boolean missingKey = bundle.encryption != null && current.keys.stream().noneMatch(k -> k.bundle.equals(id) && k.keyId.equals(bundle.encryption.keyId));
            // URLs expire within minutes and name one release's file: a server that gives them is asked again when none still works.
            boolean staleUrl = needsDownload && current.urlsExpire != null && current.url(id, info.fileName(), java.time.Instant.now()) == null;
            if (missingKey || staleUrl) {
                try {
                    grant = server.renew(current, access.devicePublicKey());
                } catch (VoucherAccessException refused) {
                    if (current.code == null) {
                        access.remove(subject);
                        throw new LiveryException(LiveryException.Kind.ACCESS, subject.noun() + " '" + subject.id + "': " + refused.getMessage());
                    }
                    grant = server.redeem(current.code, access.deviceId(), access.devicePublicKey());
                }
                access.save(grant);
                grants.put(subject, grant);
            }
            out.put(id, grant);
        }
        return out;
    }

    /** The content key of an encrypted bundle: its sealed key in the grant, opened with this device's key. */
    public static byte[] contentKey(String id, BundleEncryption encryption, AccessGrant grant, AccessTokenStore access, String tenant) throws LiveryException {
        if (!encryption.scheme.equals(BundleEncryption.SCHEME)) {
            throw new LiveryException(LiveryException.Kind.ACCESS, "bundle '" + id + "' is encrypted with " + encryption.scheme + ", which this client does not know: update the app");
        }
        WrappedContentKey wrapped = null;
        if (grant != null) for (WrappedContentKey k : grant.keys) if (k.bundle.equals(id) && k.keyId.equals(encryption.keyId)) wrapped = k;
        if (wrapped == null) {
            throw new LiveryException(LiveryException.Kind.ACCESS, "bundle '" + id + "' of " + tenant
                    + " is encrypted and the voucher server gave no key for it (a server without the tenant's content key, or an old server): it cannot be installed");
        }
        return wrapped.unwrap(access.deviceKey());
    }
}
