/// The shape of every manifest kind. The JSON Schemas under `schemas/` are generated from these.
public enum ManifestShapes {
    /// Text in several languages: locale → string.
    static let localized: Shape = .dictionary(key: .locale, value: .string())

    static let tab: Shape = .object(ObjectShape("A bottom-navigation tab.", [
        .required("id", .string(.slug), "Stable tab id."),
        .required("icon", .string(), "Icon name in the app's icon set."),
        .required("label", .string(.messageKey), "Locale key of the tab's label."),
        .optional("color", .string(.colorOrTokenReference), "Identity colour: a token reference (preferred) or a hex colour."),
    ]))

    static let overflowHelp = "The overflow 'More' tab: with more than five tabs the bar shows the first four and this tab, which lists the rest (branding.tabs)."

    /// An app icon image: PNG or SVG.
    static let iconImage: Shape = .asset([.png, .svg])

    static let appIcon: Shape = .object(ObjectShape("The app icon (docs/app-icons.md).", [
        .required("master", iconImage, "The icon, square, at least 1024 × 1024 pixels, opaque (iOS refuses transparency): PNG or SVG."),
        .optional("dark", iconImage, "iOS 18 dark appearance (transparent background allowed), at least 1024 × 1024."),
        .optional("tinted", iconImage, "iOS 18 tinted appearance (greyscale), at least 1024 × 1024."),
        .optional("android", .object(ObjectShape("Android adaptive icon layers, 108 × 108 dp each.", [
            .optional("foreground", iconImage, "Foreground layer; keep its content inside the central 66 dp circle (the safe zone)."),
            .optional("background", iconImage, "Background layer image (opaque); or give backgroundColor."),
            .optional("backgroundColor", .string(.tokenReference), "Background layer colour token, when there is no background image (default {color.brand.primary})."),
            .optional("monochrome", iconImage, "Themed-icon layer (Android 13+): only its alpha is used."),
        ])), "Android adaptive icon layers; without them the master stands in (docs/app-icons.md#android)."),
    ]))

    /// The API levels `app.android.minSdk` may name: from Jetpack Compose's minimum to the newest Android release
    /// Livery knows (36, Android 16).
    public static let androidMinSdkRange = 21...36

    public static let tenant: Shape = .object(ObjectShape("A tenant: one branded app, or one creator inside a platform app.", [
        .required("id", .string(.slug), "Stable tenant id; must equal the folder name."),
        .required("kind", .choice(["brand", "creator"]), "A brand is an app of its own; a creator publishes inside a platform app."),
        .optional("extends", .string(.slug), "Id of a tenant whose manifests this one inherits and overrides."),
        .required("name", .string(), "Human name of the tenant."),
        .optional("app", .object(ObjectShape("App identity.", [
            .required("displayName", .string(), "Name under the app icon: a message key of the locale bundles (one name per locale) or a literal (docs/build-settings.md)."),
            .optional("bundleIds", .object(ObjectShape("Store identifiers.", [
                .optional("ios", .string(.bundleID), "iOS bundle identifier."),
                .optional("android", .string(.applicationID), "Android application id."),
            ])), "Store identifiers per platform."),
            .optional("version", .string(.version), "The version people see (iOS MARKETING_VERSION, Android versionName)."),
            .optional("build", .integer(min: 1, max: 2_100_000_000), "The build number (iOS CURRENT_PROJECT_VERSION, Android versionCode; Google Play's limit is 2100000000)."),
            .optional("icon", appIcon, "The app icon: a master image and optional variants and layers (docs/app-icons.md)."),
            .optional("android", .object(ObjectShape("Android build settings.", [
                .optional("minSdk", .integer(min: androidMinSdkRange.lowerBound, max: androidMinSdkRange.upperBound),
                          "The oldest Android API level the app runs on (default 21, Jetpack Compose's minimum; at most 36, Android 16): generated Compose code checks the device's level only for APIs newer than this."),
            ])), "Android build settings (docs/platform-files.md#android-api-levels)."),
            .optional("launchScreen", .object(ObjectShape("Launch screen colours (docs/app-icons.md#launch-screens).", [
                .optional("background", .string(.tokenReference), "Colour token of the launch screen (default {color.background.default})."),
                .optional("iconBackground", .string(.tokenReference), "Colour token behind the Android 12+ splash icon (default {color.brand.primary})."),
            ])), "Launch screen colours; the image is the icon's foreground layer or master."),
        ])), "App identity (brands)."),
        .required("locales", .object(ObjectShape("Languages.", [
            .required("default", .string(.locale), "The source locale; every key must exist in it."),
            .required("supported", .list(.string(.locale), minItems: 1), "Every locale the tenant ships, including the default."),
            .optional("rtl", .list(.string(.locale)), "Locales the app lays out right to left (ar, he, fa, ur…); checked against CLDR."),
            .optional("maxLength", .dictionary(key: .text, value: .integer(min: 1)),
                      "Longest text a UI slot holds: message key or glob ('nav.*', 'errors.**') → characters, in every locale."),
            .optional("untranslatedAllowed", .list(.string()),
                      "Message keys or globs whose translations may equal the default locale's text (brand names, 'OK')."),
        ])), "Supported and default locales."),
        .optional("features", .dictionary(key: .featureName, value: .boolean), "Feature flags: name → on/off."),
        .optional("modules", .list(.string(.slug)), "Enabled modules or service categories."),
        .optional("formatting", .object(ObjectShape("Number and currency formatting.", [
            .optional("currency", .string(.currency), "ISO 4217 code of prices."),
            .optional("region", .string(), "Region for number formatting, e.g. 'IN'."),
        ])), "Number and currency formatting."),
        .optional("navigation", .object(ObjectShape("Default navigation.", [
            .required("tabs", .list(tab, minItems: 1), "Bottom tabs, in order."),
            .optional("overflow", tab, overflowHelp),
        ])), "Default navigation, used by roles that declare none."),
        .optional("roles", .list(.object(ObjectShape("A user role with its own navigation.", [
            .required("id", .string(.slug), "Role id."),
            .required("label", .string(.messageKey), "Locale key of the role's name."),
            .optional("tabs", .list(tab, minItems: 1), "This role's tabs; defaults to navigation.tabs."),
            .optional("overflow", tab, "This role's 'More' tab; defaults to navigation.overflow. " + overflowHelp),
        ]))), "User roles."),
        .optional("assets", .object(ObjectShape("Brand imagery and fonts.", [
            .optional("logo", .asset(FileType.images), "Logo (SVG preferred)."),
            .optional("logoRaster", .asset(FileType.rasterImages), "Raster logo for places that cannot draw SVG."),
            .optional("avatar", .asset(FileType.rasterImages), "Creator avatar."),
            .optional("hero", .list(.asset(FileType.rasterImages)), "Hero images."),
            .optional("fonts", .list(.asset(FileType.fonts)), "Font files bundled with the app."),
        ])), "Brand imagery and fonts, paths relative to this file."),
        .optional("branding", .object(ObjectShape("Design token files (DTCG 2025.10).", [
            .optional("tokens", .list(.asset([]), minItems: 1), "Base token files, merged in order (or use resolver)."),
            .optional("modes", .dictionary(key: .slug, value: .list(.asset([]), minItems: 1)), "Per mode (e.g. dark), token files that override the base."),
            .optional("resolver", .asset([]), "A DTCG 2025.10 resolver document (sets, modifiers, resolution order), instead of tokens and modes."),
        ])), "Design tokens."),
        .optional("release", .object(ObjectShape("Release settings.", [
            .optional("channel", .string(.channel), "The channel `livery build` publishes to (default stable); docs/output.md#channels."),
            .optional("channels", .list(.string(.channel)), "Other channels the tenant publishes (e.g. beta), for `livery build --channel` and `livery promote`."),
            .optional("minimumClientVersion", .string(.version), "Oldest app version that can read this tenant's bundles."),
        ])), "Release settings."),
        .optional("rules", .dictionary(key: .text, value: .choice(["error", "warning", "off"])), "Severity overrides by rule id (security rules cannot be lowered)."),
        .optional("media", .object(ObjectShape("Limits of the media rules (docs/tours.md#media-limits); each has a default.", [
            .optional("subtitles", .object(ObjectShape("Subtitle readability (content.subtitle-readability).", [
                .optional("charactersPerSecond", .number(min: 1, max: 100), "Reading speed (default 20)."),
                .optional("charactersPerSecondByLanguage", .dictionary(key: .locale, value: .number(min: 1, max: 100)), "Reading speed per language (e.g. ja: 8)."),
                .optional("maxLines", .integer(min: 1, max: 10), "Lines per cue (default 2)."),
                .optional("maxLineLength", .integer(min: 10, max: 200), "Characters per line (default 42)."),
            ])), "Subtitle limits."),
            .optional("images", .object(ObjectShape("Image limits (assets.image-pixels, assets.image-budget).", [
                .optional("maxMegapixels", .number(min: 1, max: 1000), "Most pixels an image may declare, in millions (default 40)."),
                .optional("logoMinimumSide", .integer(min: 1, max: 16384), "Shortest side of the raster logo in pixels (default 512)."),
                .optional("coverAspectRatio", .string(), "Width:height of tour and program covers (default 16:9)."),
                .optional("maxKilobytes", .integer(min: 1), "Largest raster image file in KB (default 1024)."),
            ])), "Image limits."),
            .optional("bundleMegabytes", .object(ObjectShape("Largest bundle of each kind in MB, for mobile downloads (content.bundle-budget).", [
                .optional("tour", .number(min: 0.1), "A tour's shared files: cover, map, route, tiles, stop images (default 25)."),
                .optional("tour-language", .number(min: 0.1), "A tour's audio and subtitles in one language (default 60)."),
                .optional("library-pack", .number(min: 0.1), "A library pack or item (default 150)."),
                .optional("program", .number(min: 0.1), "A program (default 10)."),
            ])), "Bundle size budgets."),
        ])), "Limits of the media rules."),
    ]))

    public static let voice: Shape = .object(ObjectShape("The voice and tone of a brand or creator, as checkable rules.", [
        .optional("greeting", .choice(["formal", "warm", "playful", "neutral"]), "Greeting style."),
        .optional("motivation", .choice(["low", "medium", "high"]), "How strongly copy pushes the user."),
        .optional("formality", .choice(["formal", "informal"]), "Register of address in every language with a T–V distinction (voice.formality)."),
        .optional("address", .dictionary(key: .locale, value: .string()),
                  "Per locale or language, the form of address: a pronoun (ты/вы, tu/vous, tu/Lei, du/Sie, tú/usted) or formal/informal; overrides formality."),
        .optional("emoji", .choice(["none", "sparing", "moderate", "liberal"]), "Most emoji per message: none 0, sparing 1, moderate 2, liberal no limit (voice.emoji)."),
        .optional("exclamations", .object(ObjectShape("Exclamation policy (voice.exclamation).", [
            .optional("max", .integer(min: 0), "Most exclamation marks in one message; no limit when absent."),
            .optional("inErrors", .boolean, "Whether error messages may exclaim (default false)."),
        ])), "Exclamation policy."),
        .optional("bannedTerms", .list(.object(ObjectShape("A term to avoid (voice.banned-term).", [
            .required("term", .string(), "The word or phrase to avoid, matched as whole words in any case; a trailing * matches longer words."),
            .optional("prefer", .string(), "What to write instead."),
            .optional("locale", .string(.locale), "Only in this locale or language."),
        ]))), "Terms the voice avoids."),
        .optional("labels", .object(ObjectShape("Label policy.", [
            .optional("maxWords", .integer(min: 1, max: 10), "Most words in a button label (default 3; voice.button-length)."),
            .optional("sentenceCase", .boolean, "Labels and headings in sentence case (default true; voice.sentence-case)."),
            .optional("properNouns", .list(.string()), "Names that keep their capital in labels and headings."),
        ])), "Label length and case."),
        .optional("keys", .object(ObjectShape("Which message keys are buttons, headings, errors and empty states.", [
            .optional("conventions", .boolean, "Whether the naming convention applies (default true): key parts such as button, title, errors, empty."),
            .optional("button", .list(.string()), "Keys or globs ('*' within a part, '**' across parts) of button labels."),
            .optional("heading", .list(.string()), "Keys or globs of headings."),
            .optional("error", .list(.string()), "Keys or globs of error messages."),
            .optional("emptyState", .list(.string()), "Keys or globs of empty-state messages."),
            .optional("plain", .list(.string()), "Keys or globs that are none of these, whatever their names."),
        ])), "Kinds of message, beyond the naming convention."),
        .optional("welcome", .list(.string(.messageKey)), "Locale keys of welcome messages."),
    ]))

    static let habit: Shape = .object(ObjectShape("How a habit is tracked.", [
        .required("type", .choice(["binary", "incremental", "time-based"]), "Done/not done, a count, or minutes."),
        .optional("target", .number(min: 0), "Count or minutes to reach (incremental and time-based)."),
        .optional("unit", .string(), "Unit of the target, e.g. 'glasses'."),
    ]))

    static let programItem: Shape = .object(ObjectShape("One thing to do on a day.", [
        .required("type", .choice(["habit", "lesson", "check-in"]), "What kind of item."),
        .required("id", .string(.slug), "Item id, unique in the program."),
        .optional("title", localized, "Title per locale."),
        .optional("habit", habit, "For habits: how it is tracked."),
        .optional("lesson", .string(.slug), "For lessons: id of a library item."),
        .optional("prompt", localized, "For check-ins: the question per locale."),
    ]))


    /// `status`, `availableFrom` and `availableUntil` of programs, library items and tours (docs/schedules.md).
    static func schedule(_ what: String) -> [Field] {
        [
            .optional("status", .choice(PublicationStatus.allCases.map(\.rawValue)), "draft: validated but never packed into a release; published (the default): shipped."),
            .optional("availableFrom", .string(.dateTime), "When apps start showing the \(what) (RFC 3339 with its offset); shown at once when absent."),
            .optional("availableUntil", .string(.dateTime), "When apps stop showing the \(what) (RFC 3339 with its offset); after availableFrom; shown indefinitely when absent."),
        ]
    }

    public static let program: Shape = .object(ObjectShape("A coaching program: weeks → days → items, with achievements and levels.", [
        .required("id", .string(.slug), "Program id; must equal the file name."),
        .required("title", localized, "Title per locale."),
        .optional("description", localized, "Description per locale."),
        .required("durationDays", .integer(min: 1, max: 366), "Length in days."),
        .required("difficulty", .choice(["beginner", "intermediate", "advanced"]), "Difficulty."),
        .optional("rating", .number(min: 0, max: 5), "Average rating, 0–5."),
        .optional("cover", .asset(FileType.rasterImages), "Cover image."),
        .optional("protected", .boolean, "Whether a voucher unlocks the program's bundle (docs/vouchers.md)."),
    ] + schedule("program") + [
        .required("weeks", .list(.object(ObjectShape("A week.", [
            .required("week", .integer(min: 1), "Week number, from 1."),
            .optional("title", localized, "Title per locale."),
            .required("days", .list(.object(ObjectShape("A day.", [
                .required("day", .integer(min: 1), "Day number in the program, from 1."),
                .optional("title", localized, "Title per locale."),
                .required("items", .list(programItem, minItems: 1), "What to do that day."),
            ])), minItems: 1), "Days of the week."),
        ])), minItems: 1), "The weeks, in order."),
        .optional("achievements", .list(.object(ObjectShape("An achievement.", [
            .required("id", .string(.slug), "Achievement id."),
            .required("type", .choice(["streak", "milestone", "threshold"]), "Streak of days, a reached day, or a total."),
            .required("threshold", .integer(min: 1), "Days or count needed."),
            .required("title", localized, "Title per locale."),
            .optional("metric", .string(), "For threshold achievements: what is counted."),
        ]))), "Achievements."),
        .optional("levels", .list(.object(ObjectShape("A level.", [
            .required("level", .integer(min: 1), "Level number."),
            .required("name", localized, "Level name per locale."),
            .required("minPoints", .integer(min: 0), "Points needed."),
        ]))), "Level names and thresholds."),
    ]))

    public static let library: Shape = .object(ObjectShape("A categorised content library.", [
        .optional("categories", .list(.object(ObjectShape("A category.", [
            .required("id", .string(.slug), "Category id."),
            .required("title", localized, "Title per locale."),
        ]))), "Categories."),
        .required("items", .list(.object(ObjectShape("A content item.", [
            .required("id", .string(.slug), "Item id, referenced by program lessons."),
            .required("kind", .choice(["article", "video", "audio", "worksheet"]), "What the item is."),
            .optional("category", .string(.slug), "Category id."),
            .required("title", localized, "Title per locale."),
            .required("media", .dictionary(key: .locale, value: .asset([.markdown, .mp4, .mp3, .wav, .pdf])), "The item's file per locale."),
            .optional("subtitles", .dictionary(key: .locale, value: .asset([.vtt, .srt])), "Subtitles per locale (video)."),
            .optional("durationSeconds", .integer(min: 1), "Playing time (audio and video)."),
            .optional("protected", .boolean, "Whether a voucher unlocks the item's bundle; an item in a pack follows its pack."),
        ] + schedule("item"))), minItems: 1), "The items."),
        .optional("packs", .list(.object(ObjectShape("Items downloaded together.", [
            .required("id", .string(.slug), "Pack id."),
            .required("items", .list(.string(.slug), minItems: 1), "Item ids."),
            .optional("protected", .boolean, "Whether a voucher unlocks the pack's bundle."),
        ]))), "Download packs; items not in a pack are packed alone."),
    ]))

    public static let tour: Shape = .object(ObjectShape("A GPS audio walking tour.", [
        .required("id", .string(.slug), "Tour id; must equal the folder name."),
        .required("slug", .string(.slug), "URL slug."),
        .required("title", localized, "Title per locale."),
        .optional("summary", localized, "Short summary per locale."),
        .optional("description", localized, "Description per locale."),
        .required("city", .string(), "City."),
        .required("durationMinutes", .integer(min: 1, max: 1440), "Walking time."),
        .required("distanceKm", .number(min: 0.01, max: 100), "Route length."),
        .required("languages", .list(.string(.locale), minItems: 1), "Languages with audio."),
        .optional("protected", .boolean, "Whether a voucher unlocks the tour."),
    ] + schedule("tour") + [
        .optional("unlock", .choice(["sequential", "free"]), "Whether stops unlock in order."),
        .required("cover", .asset(FileType.rasterImages), "Cover image."),
        .optional("map", .asset(FileType.images), "Map image."),
        .required("route", .asset([.gpx]), "Route (GPX 1.1)."),
        .optional("tiles", .asset([.mbtiles]), "Offline map tiles (MBTiles)."),
        .optional("offlineZoom", .object(ObjectShape("Zoom levels of the offline map (content.tile-coverage).", [
            .optional("min", .integer(min: 0, max: 22), "Lowest zoom shown offline; default the tile pack's minzoom."),
            .optional("max", .integer(min: 0, max: 22), "Highest zoom shown offline; default the tile pack's maxzoom."),
        ])), "Zoom levels at which the tile pack must cover every stop and route point; each defaults to the pack's own minzoom and maxzoom, and must lie within them."),
        .required("stops", .list(.object(ObjectShape("A stop.", [
            .required("id", .string(.slug), "Stop id."),
            .required("order", .integer(min: 1), "Position in the walk, from 1."),
            .required("title", localized, "Title per locale."),
            .required("latitude", .number(min: -90, max: 90), "WGS 84 latitude."),
            .required("longitude", .number(min: -180, max: 180), "WGS 84 longitude."),
            .required("triggerRadius", .integer(min: 1), "Metres from the stop at which audio starts (100–300)."),
            .optional("image", .asset(FileType.rasterImages), "Stop image."),
            .required("audio", .dictionary(key: .locale, value: .asset([.mp3, .mp4, .wav])), "Audio per language (MP3, AAC in M4A, or WAV)."),
            .optional("subtitles", .dictionary(key: .locale, value: .asset([.srt, .vtt])), "Subtitles per language."),
        ])), minItems: 1), "Stops."),
    ]))

    /// Locale bundles: message keys to ICU MessageFormat strings; nested mappings group keys with dots.
    public static let locale: Shape = .dictionary(key: .messageKey, value: .any)
}
