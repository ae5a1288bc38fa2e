package com.livery.client;

import com.livery.client.manifest.ClientVersion;
import java.util.List;

/** The release, or a bundle the app asked for, needs a newer app: nothing was installed, the installed release stays. */
public final class AppUpdateRequired extends LiveryException {
    private static final long serialVersionUID = 1L;
    public final String tenant;
    public final long release;
    /** The bundles that need it; empty when the whole release does. */
    public final List<String> bundles;
    public final ClientVersion required, app;
    /** The release that stays installed, or -1. */
    public final long kept;

    public AppUpdateRequired(String tenant, long release, List<String> bundles, ClientVersion required, ClientVersion app, long kept) {
        super(Kind.REQUEST, (bundles.isEmpty() ? tenant + " release " + release : String.join(", ", bundles) + " of " + tenant + " release " + release)
                + " needs app version " + required + " or newer (this app is " + app + "): update the app"
                + (kept >= 0 ? "; release " + kept + " stays installed" : ""));
        this.tenant = tenant;
        this.release = release;
        this.bundles = List.copyOf(bundles);
        this.required = required;
        this.app = app;
        this.kept = kept;
    }
}
