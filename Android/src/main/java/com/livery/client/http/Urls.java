package com.livery.client.http;

import java.net.URI;
import java.net.URISyntaxException;

/** URL text for messages and for joining paths onto a base. */
public final class Urls {
    private Urls() {}

    /** {@code uri} for messages: without its query and fragment, which for a signed URL are a credential. */
    public static String shown(URI uri) {
        try {
            return new URI(uri.getScheme(), uri.getRawAuthority() == null ? null : uri.getAuthority(), uri.getPath(), null, null).toString();
        } catch (URISyntaxException e) {
            return String.valueOf(uri.getPath());
        }
    }

    /** {@code base} ending with {@code /}, so that relative paths resolve under it rather than beside it. */
    public static URI asFolder(URI base) {
        String text = base.toString();
        return text.endsWith("/") ? base : URI.create(text + "/");
    }

    /**
     * {@code path} under {@code base}, joined as text: paths arrive URL-ready (role names and target paths already
     * quoted), so resolving them would quote their {@code %} a second time or read a {@code :} as a scheme.
     */
    public static URI join(URI base, String path) {
        String text = base.toString();
        if (text.endsWith("/")) text = text.substring(0, text.length() - 1);
        return URI.create(text + "/" + path);
    }
}
