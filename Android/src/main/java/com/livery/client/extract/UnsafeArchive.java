package com.livery.client.extract;

import com.livery.client.LiveryException;

/** An archive the extractor refuses: a path out of its folder, a link or device, a duplicate, a broken cap or a damaged entry. */
public final class UnsafeArchive extends LiveryException {
    private static final long serialVersionUID = 1L;

    public UnsafeArchive(String message) {
        super(Kind.UNSAFE_ARCHIVE, message);
    }
}
