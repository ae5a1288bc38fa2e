extension ManifestShapes {
    /// `store.yaml`: which stores a brand's listing goes to, its URLs, and store locale codes chosen
    /// by hand. The listing's text is in the locale bundles under `store.*` (docs/store-listings.md).
    public static let store: Shape = .object(ObjectShape("A brand's store listings (App Store, Google Play); their text is the locale bundles' store.* messages.", [
        .optional("stores", .list(.choice(["appStore", "googlePlay"]), minItems: 1), "The stores the app is listed in (default both)."),
        .required("urls", .object(ObjectShape("Web pages the listings link to (https).", [
            .optional("privacy", .string(), "Privacy policy: both stores require it (store.urls)."),
            .optional("support", .string(), "Support page: the App Store requires it (store.urls)."),
            .optional("marketing", .string(), "Marketing page (App Store, optional)."),
        ])), "Web pages the listings link to."),
        .optional("locales", .object(ObjectShape("Store locale codes for locales the built-in table maps otherwise or not at all (store.locale).", [
            .optional("appStore", .dictionary(key: .locale, value: .string()), "Our locale → App Store Connect locale code, e.g. es: es-MX."),
            .optional("googlePlay", .dictionary(key: .locale, value: .string()), "Our locale → Google Play language code, e.g. es: es-419."),
        ])), "Store locale codes by hand."),
    ]))
}
