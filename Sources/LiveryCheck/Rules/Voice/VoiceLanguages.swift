// The language facts the voice rules use: forms of address (T–V distinction), words that say
// "there is nothing here", words that name an error, and how words are split and cased.
//
// These tables are Swift rather than data files loaded at run time: they are compiled into the
// binary, so `livery` works wherever it is copied (SwiftPM resource bundles are looked up next to
// the executable on Linux and are easily lost when installing), a typo is a compile error rather
// than a runtime failure on a user's machine, and the tables are small. docs/voice.md shows them
// to readers, and a test checks that every word listed there is in these tables.

/// How a word of an address list is recognised in copy.
enum AddressMatch: Sendable {
    /// In any letter case: `ты`, `Ты`, `ТЫ`.
    case anyCase
    /// Only with a capital first letter, anywhere: German `Ihnen` (lowercase `ihnen` is "to them").
    case capitalised
    /// Only with a capital first letter and not at the start of a sentence, where a capital proves
    /// nothing: German `Sie` (also "she", "they"), Italian `La`, `Le`, `Suo` (also articles, "his").
    case capitalisedMidSentence
}

/// One word form of a form of address.
struct AddressForm: Sendable {
    let word: String
    let match: AddressMatch
    /// An elided form written before an apostrophe (`t'` in French and Italian); matched only there,
    /// so the euphonic `t` of French `a-t-il` is not taken for a pronoun.
    let elided: Bool

    init(_ word: String, _ match: AddressMatch = .anyCase) {
        self.elided = word.hasSuffix("'")
        self.word = elided ? String(word.dropLast()) : word
        self.match = match
    }
}

/// What the voice rules know about one language.
struct VoiceLanguage: Sendable {
    let code: String
    /// The pronoun that names each register, as written in `address:` (ты / вы).
    let informalName: [String]
    let formalName: [String]
    let informal: [AddressForm]
    let formal: [AddressForm]
    /// True where an apostrophe ends a word (French `l'app` is `l` + `app`); false where it joins one (English `don't`).
    let splitsApostrophes: Bool
    /// Words that state an absence ("no", "nothing"): an empty state made only of such a statement is a dead end.
    let absenceWords: Set<String>
    /// Words next to which a 4xx/5xx number reads as an HTTP status code ("error 500").
    let errorWords: Set<String>

    /// The language of a locale id: `pt-BR` → `pt`.
    static func code(of locale: String) -> String {
        String(locale.split(separator: "-").first ?? Substring(locale)).lowercased()
    }

    static func named(_ locale: String) -> VoiceLanguage? { table[code(of: locale)] }

    /// Languages where ordinary nouns are capitalised, so sentence case cannot be checked.
    static let nounCapitalising: Set<String> = ["de", "lb"]
    /// Languages written without spaces between words, so words cannot be counted by spaces.
    static let unspaced: Set<String> = ["ja", "zh", "th", "lo", "km", "my", "bo"]
    /// Languages whose apostrophe elides (`l'app`); used for languages without a table entry too.
    static let eliding: Set<String> = ["fr", "it", "ca", "oc"]

    /// Error words of every language, so "HTTP 500" is caught whatever the locale.
    static let allErrorWords: Set<String> = table.values.reduce(into: Set(["http", "https", "status", "code", "err", "errno"])) { $0.formUnion($1.errorWords) }

    static let table: [String: VoiceLanguage] = Dictionary(uniqueKeysWithValues: [english, russian, french, italian, german, spanish].map { ($0.code, $0) })

    // English has no T–V distinction: `you` is both, so formality is not checked.
    static let english = VoiceLanguage(
        code: "en", informalName: [], formalName: [], informal: [], formal: [], splitsApostrophes: false,
        absenceWords: ["no", "nothing", "none", "empty", "not"],
        errorWords: ["error", "failed", "failure"])

    static let russian = VoiceLanguage(
        code: "ru", informalName: ["ты"], formalName: ["вы"],
        informal: ["ты", "тебя", "тебе", "тобой", "тобою", "твой", "твоя", "твоё", "твое", "твои", "твоего", "твоей", "твоему",
                   "твоим", "твоими", "твоих", "твою"].map { AddressForm($0) },
        formal: ["вы", "вас", "вам", "вами", "ваш", "ваша", "ваше", "ваши", "вашего", "вашей", "вашему", "вашим", "вашими",
                 "ваших", "вашу"].map { AddressForm($0) },
        splitsApostrophes: false,
        absenceWords: ["нет", "ничего", "пусто", "пуст", "пуста", "отсутствуют", "отсутствует"],
        errorWords: ["ошибка", "ошибки", "код", "статус"])

    // The possessive pronouns `le tien`, `la tienne` are left out: `tiens`, `tienne` are also forms of `tenir`.
    static let french = VoiceLanguage(
        code: "fr", informalName: ["tu"], formalName: ["vous"],
        informal: ["tu", "te", "t'", "toi", "ton", "ta", "tes"].map { AddressForm($0) },
        formal: ["vous", "votre", "vos", "vôtre", "vôtres"].map { AddressForm($0) },
        splitsApostrophes: true,
        absenceWords: ["aucun", "aucune", "rien", "vide", "pas"],
        errorWords: ["erreur", "code", "statut"])

    // Formal Italian capitalises the courtesy pronouns. `Lei` is formal wherever it is capitalised
    // (copy rarely says "she"); `La`, `Le`, `Suo`… only mid-sentence, since at the start of a
    // sentence they are articles or "his/her". Lowercase `lei`, `la`, `suo` are never counted.
    static let italian = VoiceLanguage(
        code: "it", informalName: ["tu"], formalName: ["lei"],
        informal: ["tu", "ti", "te", "t'", "tuo", "tua", "tuoi", "tue"].map { AddressForm($0) },
        formal: [AddressForm("Lei", .capitalised)] + ["La", "Le", "Suo", "Sua", "Suoi", "Sue"].map { AddressForm($0, .capitalisedMidSentence) },
        splitsApostrophes: true,
        absenceWords: ["nessun", "nessuna", "nessuno", "niente", "nulla", "vuoto", "vuota", "non"],
        errorWords: ["errore", "codice", "stato"])

    // German formal pronouns are capitalised; lowercase `sie`, `ihr`, `ihnen` are "she/they", "her",
    // "them". A sentence-initial `Sie` or `Ihr` is ambiguous and not counted; `Ihnen` is.
    static let german = VoiceLanguage(
        code: "de", informalName: ["du"], formalName: ["sie"],
        informal: ["du", "dich", "dir", "dein", "deine", "deinem", "deinen", "deiner", "deines",
                   "euch", "euer", "eure", "eurem", "euren", "eurer", "eures"].map { AddressForm($0) },
        formal: [AddressForm("Ihnen", .capitalised)]
            + ["Sie", "Ihr", "Ihre", "Ihrem", "Ihren", "Ihrer", "Ihres"].map { AddressForm($0, .capitalisedMidSentence) },
        splitsApostrophes: false,
        absenceWords: ["kein", "keine", "keinen", "keiner", "nichts", "leer", "nicht"],
        errorWords: ["fehler", "fehlercode", "statuscode"])

    // `su`, `sus`, `le`, `les` are left out of the formal list: they are also "his/her/their" and
    // "to him/her", so they would flag informal copy that talks about someone else.
    static let spanish = VoiceLanguage(
        code: "es", informalName: ["tú", "tu"], formalName: ["usted"],
        informal: ["tú", "te", "ti", "contigo", "tu", "tus", "tuyo", "tuya", "tuyos", "tuyas",
                   "vosotros", "vosotras", "os", "vuestro", "vuestra", "vuestros", "vuestras"].map { AddressForm($0) },
        formal: ["usted", "ustedes", "ud", "uds", "vd", "vds"].map { AddressForm($0) },
        splitsApostrophes: false,
        absenceWords: ["no", "nada", "ningún", "ninguna", "ninguno", "sin", "vacío", "vacía"],
        errorWords: ["error", "código", "estado"])
}
