package com.livery.client.voucher;

import com.livery.client.LiveryException;

/** The server refused a voucher-protected download or renewal: no token, or one it does not accept. */
public final class VoucherAccessException extends LiveryException {
    private static final long serialVersionUID = 1L;
    public final int status;
    public final boolean hadToken;

    public VoucherAccessException(String path, int status, boolean hadToken) {
        super(Kind.ACCESS, hadToken
                ? "the server refused the access token for " + path + " (HTTP " + status + "): it was revoked, has expired or is for something else; redeem the voucher again"
                : path + " is protected by a voucher (HTTP " + status + "): redeem a voucher code first");
        this.status = status;
        this.hadToken = hadToken;
    }
}
