import LiveryL10n

/// The preview pages' own words (headings, labels, badges, notes) in every language they are written
/// in: one table, `phrases(_:)`, so a language is added in one place and a test can check that every
/// word has every language. A page takes the words of its locale's language (`es-419` → `es`); a
/// language the table lacks gets English. The tenant's own text never passes through here.
public struct PreviewWords: Sendable {
    /// The languages of the table, English (the fallback) first.
    public static let languages = ["en", "es", "fr", "de", "it", "ru", "hi"]

    /// The language the words are in.
    public let language: String
    let plurals: PluralRules?

    public init(locale: String) {
        let code = String(locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
        language = Self.languages.contains(code) ? code : "en"
        plurals = PluralRules.cardinal(language)
    }

    /// A phrase: text with `{name}` placeholders, or one text per plural category of its `{n}`
    /// (a category the phrase does not give reads as `other`).
    public enum Phrase: Sendable, ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral {
        case text(String)
        case plural([PluralCategory: String])

        public init(stringLiteral value: String) { self = .text(value) }
        public init(dictionaryLiteral elements: (PluralCategory, String)...) {
            self = .plural(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// `key` in the page's language, its placeholders filled from `arguments`.
    public func callAsFunction(_ key: Key, _ arguments: [String: String] = [:]) -> String {
        fill(Self.phrase(key, language), count: nil, arguments)
    }

    /// `key` with `{n}` = `count`, in the plural form the language uses for it.
    public func callAsFunction(_ key: Key, count: Int, _ arguments: [String: String] = [:]) -> String {
        fill(Self.phrase(key, language), count: count, arguments.merging(["n": String(count)]) { given, _ in given })
    }

    /// Every word without placeholders, by key: what the templates read as `{{words.<key>}}`.
    public var templateWords: [String: String] {
        var words: [String: String] = [:]
        for key in Key.allCases {
            guard case .text(let text) = Self.phrase(key, language), !text.contains("{") else { continue }
            words[key.rawValue] = text
        }
        return words
    }

    static func phrase(_ key: Key, _ language: String) -> Phrase {
        let phrases = Self.phrases(key)
        return phrases[language] ?? phrases["en"] ?? .text(key.rawValue)
    }

    func fill(_ phrase: Phrase, count: Int?, _ arguments: [String: String]) -> String {
        var text: String
        switch phrase {
        case .text(let plain): text = plain
        case .plural(let forms):
            let category = count.flatMap { plurals?.category($0) } ?? .other
            text = forms[category] ?? forms[.other] ?? ""
        }
        for (name, value) in arguments { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// The words by where they are used. Raw values are the templates' names.
    public enum Key: String, CaseIterable, Sendable {
        // Site and locale pages
        case brandSheet, tabs, brandColours, programs, library, tours, other, inMore, symbolNote
        case week, day, days, lesson, habit, checkIn, target
        case beginner, intermediate, advanced, binary, incremental, timeBased
        case glasses, minutes, reps, steps
        case article, video, audio, worksheet
        case draft, from, until, voucher, stops, durationMinutes, durationSeconds
        // Tour pages
        case startsWithin, noAudio, audioIn, mapNothing, mapNoPack, mapZoom, mapMissing
        // Brand sheet
        case sheetFor, sheetContents, palette, mode, changed, setBy, addedBy, new, was, through, oursNote
        case contrast, contrastSummary, noContrast, contrastNote, sample, foreground, background, usage, ratio
        case acknowledged, body, ui, pass, fail, notAColour
        case typeScale, typeNote, sampleSentence, spacing, radii, shadows, springs, springsNote
        case bouncy, lively, smooth, springOvershoots, springCritical, springOverdamped, springParameters, footer
    }

    // The one table. Words that name Livery's or DTCG's own terms (token paths, group names, `AA`,
    // `WCAG`) are left as they are written. French puts a no-break space before `:` and inside « ».
    static func phrases(_ key: Key) -> [String: Phrase] {
        switch key {
        case .brandSheet:
            return ["en": "brand sheet", "es": "hoja de marca", "fr": "fiche de marque", "de": "Markenblatt", "it": "scheda del brand",
                    "ru": "лист бренда", "hi": "ब्रांड शीट"]
        case .tabs:
            return ["en": "Tabs", "es": "Pestañas", "fr": "Onglets", "de": "Tabs", "it": "Schede", "ru": "Вкладки", "hi": "टैब"]
        case .brandColours:
            return ["en": "Brand colours", "es": "Colores de marca", "fr": "Couleurs de la marque", "de": "Markenfarben", "it": "Colori del brand",
                    "ru": "Цвета бренда", "hi": "ब्रांड के रंग"]
        case .programs:
            return ["en": "Programs", "es": "Programas", "fr": "Programmes", "de": "Programme", "it": "Programmi", "ru": "Программы", "hi": "प्रोग्राम"]
        case .library:
            return ["en": "Library", "es": "Biblioteca", "fr": "Bibliothèque", "de": "Bibliothek", "it": "Libreria", "ru": "Библиотека", "hi": "लाइब्रेरी"]
        case .tours:
            return ["en": "Tours", "es": "Recorridos", "fr": "Visites", "de": "Touren", "it": "Tour", "ru": "Экскурсии", "hi": "टूर"]
        case .other:
            return ["en": "Other", "es": "Otros", "fr": "Autres", "de": "Sonstiges", "it": "Altro", "ru": "Другое", "hi": "अन्य"]
        case .inMore:
            // {more}: the tenant's own label of its overflow tab.
            return ["en": "in {more}", "es": "en «{more}»", "fr": "dans «\u{00A0}{more}\u{00A0}»", "de": "unter „{more}“", "it": "in «{more}»",
                    "ru": "в разделе «{more}»", "hi": "“{more}” में"]
        case .symbolNote:
            return ["en": "{name}: a system symbol; no image in assets/icons/ to draw",
                    "es": "{name}: un símbolo del sistema; no hay imagen en assets/icons/ para dibujarlo",
                    "fr": "{name}\u{00A0}: un symbole du système\u{00A0}; aucune image dans assets/icons/ pour le dessiner",
                    "de": "{name}: ein Systemsymbol; kein Bild in assets/icons/ zum Zeichnen",
                    "it": "{name}: un simbolo di sistema; nessuna immagine in assets/icons/ da disegnare",
                    "ru": "{name}: системный символ; в assets/icons/ нет изображения для него",
                    "hi": "{name}: सिस्टम सिंबल; assets/icons/ में इसकी कोई इमेज नहीं"]
        case .week:
            return ["en": "Week {n}", "es": "Semana {n}", "fr": "Semaine {n}", "de": "Woche {n}", "it": "Settimana {n}", "ru": "Неделя {n}", "hi": "सप्ताह {n}"]
        case .day:
            return ["en": "Day {n}", "es": "Día {n}", "fr": "Jour {n}", "de": "Tag {n}", "it": "Giorno {n}", "ru": "День {n}", "hi": "दिन {n}"]
        case .days:
            return ["en": [.one: "{n} day", .other: "{n} days"], "es": [.one: "{n} día", .other: "{n} días"],
                    "fr": [.one: "{n} jour", .other: "{n} jours"], "de": [.one: "{n} Tag", .other: "{n} Tage"],
                    "it": [.one: "{n} giorno", .other: "{n} giorni"], "ru": [.one: "{n} день", .few: "{n} дня", .many: "{n} дней", .other: "{n} дня"],
                    "hi": "{n} दिन"]
        case .lesson:
            return ["en": "lesson", "es": "lección", "fr": "leçon", "de": "Lektion", "it": "lezione", "ru": "урок", "hi": "पाठ"]
        case .habit:
            return ["en": "habit", "es": "hábito", "fr": "habitude", "de": "Gewohnheit", "it": "abitudine", "ru": "привычка", "hi": "आदत"]
        case .checkIn:
            return ["en": "check-in", "es": "reflexión", "fr": "bilan", "de": "Rückblick", "it": "bilancio", "ru": "рефлексия", "hi": "चेक-इन"]
        case .target:
            return ["en": "target {value}", "es": "objetivo: {value}", "fr": "objectif\u{00A0}: {value}", "de": "Ziel: {value}", "it": "obiettivo: {value}",
                    "ru": "цель: {value}", "hi": "लक्ष्य: {value}"]
        case .beginner:
            return ["en": "beginner", "es": "principiante", "fr": "débutant", "de": "Einsteiger", "it": "principiante", "ru": "начальный уровень", "hi": "शुरुआती"]
        case .intermediate:
            return ["en": "intermediate", "es": "intermedio", "fr": "intermédiaire", "de": "Mittelstufe", "it": "intermedio", "ru": "средний уровень", "hi": "मध्यम"]
        case .advanced:
            return ["en": "advanced", "es": "avanzado", "fr": "avancé", "de": "Fortgeschritten", "it": "avanzato", "ru": "продвинутый уровень", "hi": "उन्नत"]
        case .binary:
            return ["en": "binary", "es": "sí o no", "fr": "oui ou non", "de": "ja oder nein", "it": "sì o no", "ru": "да или нет", "hi": "हाँ या नहीं"]
        case .incremental:
            return ["en": "incremental", "es": "acumulativo", "fr": "cumulatif", "de": "zählend", "it": "incrementale", "ru": "накопительная", "hi": "गिनती वाली"]
        case .timeBased:
            return ["en": "time-based", "es": "por tiempo", "fr": "chronométré", "de": "zeitbasiert", "it": "a tempo", "ru": "по времени", "hi": "समय पर आधारित"]
        // Habit units are codes the app localises; these are the samples'. Another code is shown as written.
        case .glasses:
            return ["en": [.one: "{n} glass", .other: "{n} glasses"], "es": [.one: "{n} vaso", .other: "{n} vasos"],
                    "fr": [.one: "{n} verre", .other: "{n} verres"], "de": [.one: "{n} Glas", .other: "{n} Gläser"],
                    "it": [.one: "{n} bicchiere", .other: "{n} bicchieri"],
                    "ru": [.one: "{n} стакан", .few: "{n} стакана", .many: "{n} стаканов", .other: "{n} стакана"], "hi": "{n} गिलास"]
        case .minutes:
            return ["en": [.one: "{n} minute", .other: "{n} minutes"], "es": [.one: "{n} minuto", .other: "{n} minutos"],
                    "fr": [.one: "{n} minute", .other: "{n} minutes"], "de": [.one: "{n} Minute", .other: "{n} Minuten"],
                    "it": [.one: "{n} minuto", .other: "{n} minuti"],
                    "ru": [.one: "{n} минута", .few: "{n} минуты", .many: "{n} минут", .other: "{n} минуты"], "hi": "{n} मिनट"]
        case .reps:
            return ["en": [.one: "{n} rep", .other: "{n} reps"], "es": [.one: "{n} repetición", .other: "{n} repeticiones"],
                    "fr": [.one: "{n} répétition", .other: "{n} répétitions"], "de": [.one: "{n} Wiederholung", .other: "{n} Wiederholungen"],
                    "it": [.one: "{n} ripetizione", .other: "{n} ripetizioni"],
                    "ru": [.one: "{n} повторение", .few: "{n} повторения", .many: "{n} повторений", .other: "{n} повторения"], "hi": "{n} बार"]
        case .steps:
            return ["en": [.one: "{n} step", .other: "{n} steps"], "es": [.one: "{n} paso", .other: "{n} pasos"],
                    "fr": [.one: "{n} pas", .other: "{n} pas"], "de": [.one: "{n} Schritt", .other: "{n} Schritte"],
                    "it": [.one: "{n} passo", .other: "{n} passi"],
                    "ru": [.one: "{n} шаг", .few: "{n} шага", .many: "{n} шагов", .other: "{n} шага"], "hi": "{n} कदम"]
        case .article:
            return ["en": "article", "es": "artículo", "fr": "article", "de": "Artikel", "it": "articolo", "ru": "статья", "hi": "लेख"]
        case .video:
            return ["en": "video", "es": "vídeo", "fr": "vidéo", "de": "Video", "it": "video", "ru": "видео", "hi": "वीडियो"]
        case .audio:
            return ["en": "audio", "es": "audio", "fr": "audio", "de": "Audio", "it": "audio", "ru": "аудио", "hi": "ऑडियो"]
        case .worksheet:
            return ["en": "worksheet", "es": "ficha", "fr": "fiche d’exercices", "de": "Arbeitsblatt", "it": "scheda", "ru": "рабочий лист", "hi": "वर्कशीट"]
        case .draft:
            return ["en": "draft: not in releases", "es": "borrador: no entra en las versiones", "fr": "brouillon\u{00A0}: absent des versions publiées",
                    "de": "Entwurf: nicht in Releases", "it": "bozza: esclusa dalle release", "ru": "черновик: не входит в релизы",
                    "hi": "ड्राफ़्ट: रिलीज़ में शामिल नहीं"]
        case .from:
            return ["en": "from {date}", "es": "desde {date}", "fr": "à partir du {date}", "de": "ab {date}", "it": "dal {date}", "ru": "с {date}", "hi": "{date} से"]
        case .until:
            return ["en": "until {date}", "es": "hasta {date}", "fr": "jusqu’au {date}", "de": "bis {date}", "it": "fino al {date}", "ru": "до {date}", "hi": "{date} तक"]
        case .voucher:
            return ["en": "voucher", "es": "con código", "fr": "avec code", "de": "mit Gutschein", "it": "con voucher", "ru": "по ваучеру", "hi": "वाउचर से"]
        case .stops:
            return ["en": [.one: "{n} stop", .other: "{n} stops"], "es": [.one: "{n} parada", .other: "{n} paradas"],
                    "fr": [.one: "{n} étape", .other: "{n} étapes"], "de": [.one: "{n} Station", .other: "{n} Stationen"],
                    "it": [.one: "{n} tappa", .other: "{n} tappe"],
                    "ru": [.one: "{n} остановка", .few: "{n} остановки", .many: "{n} остановок", .other: "{n} остановки"], "hi": "{n} पड़ाव"]
        case .durationMinutes:
            return ["en": "{n} min", "es": "{n} min", "fr": "{n} min", "de": "{n} Min.", "it": "{n} min", "ru": "{n} мин", "hi": "{n} मिनट"]
        case .durationSeconds:
            return ["en": "{n} s", "es": "{n} s", "fr": "{n} s", "de": "{n} s", "it": "{n} s", "ru": "{n} с", "hi": "{n} सेकंड"]
        case .startsWithin:
            return ["en": "starts within {n} m", "es": "empieza a {n} m", "fr": "démarre à {n} m", "de": "startet im Umkreis von {n} m",
                    "it": "parte entro {n} m", "ru": "начинается в радиусе {n} м", "hi": "{n} मीटर के भीतर शुरू"]
        case .noAudio:
            return ["en": "no audio", "es": "sin audio", "fr": "pas d’audio", "de": "kein Audio", "it": "nessun audio", "ru": "без аудио", "hi": "ऑडियो नहीं"]
        case .audioIn:
            return ["en": "audio in {language}", "es": "audio en {language}", "fr": "audio en {language}", "de": "Audio auf {language}",
                    "it": "audio in {language}", "ru": "аудио на языке {language}", "hi": "{language} में ऑडियो"]
        case .mapNothing:
            return ["en": "no route or stops to draw", "es": "no hay ruta ni paradas que dibujar", "fr": "aucun itinéraire ni étape à dessiner",
                    "de": "keine Route und keine Stationen zu zeichnen", "it": "nessun percorso né tappe da disegnare", "ru": "нет маршрута и остановок",
                    "hi": "दिखाने के लिए कोई रास्ता या पड़ाव नहीं"]
        case .mapNoPack:
            return ["en": "no offline tile pack: route and stops only", "es": "sin paquete de teselas sin conexión: solo ruta y paradas",
                    "fr": "pas de paquet de tuiles hors ligne\u{00A0}: itinéraire et étapes seulement",
                    "de": "kein Offline-Kachelpaket: nur Route und Stationen", "it": "nessun pacchetto di tile offline: solo percorso e tappe",
                    "ru": "нет офлайн-пакета тайлов: только маршрут и остановки", "hi": "ऑफ़लाइन टाइल पैक नहीं: सिर्फ़ रास्ता और पड़ाव"]
        case .mapZoom:
            return ["en": "offline tiles at zoom {zoom}", "es": "teselas sin conexión con zoom {zoom}", "fr": "tuiles hors ligne au zoom {zoom}",
                    "de": "Offline-Kacheln in Zoomstufe {zoom}", "it": "tile offline allo zoom {zoom}", "ru": "офлайн-тайлы, масштаб {zoom}",
                    "hi": "ज़ूम {zoom} पर ऑफ़लाइन टाइल"]
        case .mapMissing:
            return ["en": [.one: "{n} tile of this view not in the pack", .other: "{n} tiles of this view not in the pack"],
                    "es": [.one: "falta en el paquete {n} tesela de esta vista", .other: "faltan en el paquete {n} teselas de esta vista"],
                    "fr": [.one: "{n} tuile de cette vue absente du paquet", .other: "{n} tuiles de cette vue absentes du paquet"],
                    "de": [.one: "{n} Kachel dieser Ansicht fehlt im Paket", .other: "{n} Kacheln dieser Ansicht fehlen im Paket"],
                    "it": [.one: "{n} tile di questa vista non è nel pacchetto", .other: "{n} tile di questa vista non sono nel pacchetto"],
                    "ru": "тайлов этого вида нет в пакете: {n}", "hi": "इस दृश्य की {n} टाइल पैक में नहीं"]
        case .sheetFor:
            return ["en": "Brand sheet for", "es": "Hoja de marca de", "fr": "Fiche de marque de", "de": "Markenblatt für", "it": "Scheda del brand di",
                    "ru": "Лист бренда", "hi": "ब्रांड शीट:"]
        case .sheetContents:
            return ["en": "colours per mode, type, spacing, radii, shadows, motion and contrast",
                    "es": "colores por modo, tipografía, espaciado, radios, sombras, movimiento y contraste",
                    "fr": "couleurs par mode, typographie, espacements, rayons, ombres, mouvement et contraste",
                    "de": "Farben je Modus, Schrift, Abstände, Radien, Schatten, Bewegung und Kontrast",
                    "it": "colori per modalità, tipografia, spaziature, raggi, ombre, movimento e contrasto",
                    "ru": "цвета по режимам, шрифты, отступы, радиусы, тени, движение и контраст",
                    "hi": "हर मोड के रंग, टाइप, स्पेसिंग, कोनों की गोलाई, छाया, गति और कंट्रास्ट"]
        case .palette:
            return ["en": "Palette", "es": "Paleta", "fr": "Palette", "de": "Palette", "it": "Tavolozza", "ru": "Палитра", "hi": "पैलेट"]
        case .mode:
            return ["en": "mode “{name}”", "es": "modo «{name}»", "fr": "mode «\u{00A0}{name}\u{00A0}»", "de": "Modus „{name}“", "it": "modalità «{name}»",
                    "ru": "режим «{name}»", "hi": "मोड “{name}”"]
        case .changed:
            return ["en": "changed", "es": "cambia", "fr": "modifié", "de": "geändert", "it": "cambia", "ru": "иначе", "hi": "बदला"]
        case .setBy:
            return ["en": "set by {name}", "es": "definido por {name}", "fr": "défini par {name}", "de": "festgelegt von {name}", "it": "impostato da {name}",
                    "ru": "задано: {name}", "hi": "{name} द्वारा तय"]
        case .addedBy:
            return ["en": "added by {name}", "es": "añadido por {name}", "fr": "ajouté par {name}", "de": "hinzugefügt von {name}", "it": "aggiunto da {name}",
                    "ru": "добавлено: {name}", "hi": "{name} द्वारा जोड़ा गया"]
        case .new:
            return ["en": "new", "es": "nuevo", "fr": "nouveau", "de": "neu", "it": "nuovo", "ru": "новый", "hi": "नया"]
        case .was:
            return ["en": "was", "es": "antes", "fr": "avant", "de": "vorher", "it": "prima", "ru": "было", "hi": "पहले"]
        case .through:
            return ["en": "through {path}", "es": "a través de {path}", "fr": "via {path}", "de": "über {path}", "it": "tramite {path}", "ru": "через {path}",
                    "hi": "{path} के ज़रिए"]
        case .oursNote:
            return ["en": "Colours marked “{name}” are set by {name}; where one replaces a value of {base}, that value is struck through.",
                    "es": "Los colores marcados «{name}» los define {name}; cuando uno sustituye un valor de {base}, ese valor aparece tachado.",
                    "fr": "Les couleurs marquées «\u{00A0}{name}\u{00A0}» sont définies par {name}\u{00A0}; quand l’une remplace une valeur de {base}, celle-ci est barrée.",
                    "de": "Mit „{name}“ markierte Farben legt {name} fest; ersetzt eine davon einen Wert von {base}, ist dieser durchgestrichen.",
                    "it": "I colori contrassegnati «{name}» sono impostati da {name}; quando uno sostituisce un valore di {base}, quel valore appare barrato.",
                    "ru": "Цвета с пометкой «{name}» задаёт {name}; если цвет заменяет значение {base}, прежнее значение зачёркнуто.",
                    "hi": "“{name}” चिह्न वाले रंग {name} ने तय किए हैं; जहाँ कोई रंग {base} के मान की जगह लेता है, वह मान कटा हुआ दिखता है।"]
        case .contrast:
            return ["en": "Contrast (WCAG 2.x)", "es": "Contraste (WCAG 2.x)", "fr": "Contraste (WCAG 2.x)", "de": "Kontrast (WCAG 2.x)",
                    "it": "Contrasto (WCAG 2.x)", "ru": "Контраст (WCAG 2.x)", "hi": "कंट्रास्ट (WCAG 2.x)"]
        case .contrastSummary:
            return ["en": "{passing} of {total} pairs meet AA", "es": "{passing} de {total} pares cumplen AA", "fr": "{passing} paires sur {total} atteignent AA",
                    "de": "{passing} von {total} Paaren erfüllen AA", "it": "{passing} coppie su {total} raggiungono AA", "ru": "AA: {passing} из {total} пар",
                    "hi": "{total} में से {passing} जोड़े AA पूरा करते हैं"]
        case .noContrast:
            return ["en": "No contrast pairs declared", "es": "No hay pares de contraste declarados", "fr": "Aucune paire de contraste déclarée",
                    "de": "Keine Kontrastpaare angegeben", "it": "Nessuna coppia di contrasto dichiarata", "ru": "Пары для проверки контраста не заданы",
                    "hi": "कोई कंट्रास्ट जोड़ा घोषित नहीं"]
        case .contrastNote:
            return ["en": "Body text needs 4.5:1 for AA and 7:1 for AAA; large text and UI parts 3:1 and 4.5:1.",
                    "es": "El texto normal necesita 4.5:1 para AA y 7:1 para AAA; el texto grande y los elementos de la interfaz, 3:1 y 4.5:1.",
                    "fr": "Le texte courant demande 4.5:1 pour AA et 7:1 pour AAA\u{00A0}; le grand texte et les éléments d’interface, 3:1 et 4.5:1.",
                    "de": "Fließtext braucht 4.5:1 für AA und 7:1 für AAA, großer Text und Bedienelemente 3:1 und 4.5:1.",
                    "it": "Il testo normale richiede 4.5:1 per AA e 7:1 per AAA; il testo grande e gli elementi dell’interfaccia 3:1 e 4.5:1.",
                    "ru": "Основному тексту нужно 4.5:1 для AA и 7:1 для AAA; крупному тексту и элементам интерфейса — 3:1 и 4.5:1.",
                    "hi": "सामान्य टेक्स्ट को AA के लिए 4.5:1 और AAA के लिए 7:1 चाहिए; बड़े टेक्स्ट और UI हिस्सों को 3:1 और 4.5:1।"]
        case .sample:
            return ["en": "Sample", "es": "Muestra", "fr": "Aperçu", "de": "Beispiel", "it": "Esempio", "ru": "Образец", "hi": "नमूना"]
        case .foreground:
            return ["en": "Foreground", "es": "Primer plano", "fr": "Premier plan", "de": "Vordergrund", "it": "Primo piano", "ru": "Передний план", "hi": "अग्रभूमि"]
        case .background:
            return ["en": "Background", "es": "Fondo", "fr": "Arrière-plan", "de": "Hintergrund", "it": "Sfondo", "ru": "Фон", "hi": "पृष्ठभूमि"]
        case .usage:
            return ["en": "Usage", "es": "Uso", "fr": "Usage", "de": "Verwendung", "it": "Uso", "ru": "Назначение", "hi": "उपयोग"]
        case .ratio:
            return ["en": "Ratio", "es": "Relación", "fr": "Rapport", "de": "Verhältnis", "it": "Rapporto", "ru": "Соотношение", "hi": "अनुपात"]
        case .acknowledged:
            return ["en": "Acknowledged:", "es": "Aceptado:", "fr": "Assumé\u{00A0}:", "de": "Bewusst so:", "it": "Accettato:", "ru": "Принято:", "hi": "स्वीकार किया गया:"]
        case .body:
            return ["en": "body", "es": "texto", "fr": "texte", "de": "Text", "it": "testo", "ru": "текст", "hi": "टेक्स्ट"]
        case .ui:
            return ["en": "ui", "es": "interfaz", "fr": "interface", "de": "Bedienelemente", "it": "interfaccia", "ru": "интерфейс", "hi": "UI"]
        case .pass:
            return ["en": "pass", "es": "cumple", "fr": "réussi", "de": "erfüllt", "it": "superato", "ru": "да", "hi": "पास"]
        case .fail:
            return ["en": "fail", "es": "no cumple", "fr": "échec", "de": "nicht erfüllt", "it": "non superato", "ru": "нет", "hi": "फ़ेल"]
        case .notAColour:
            return ["en": "not a colour", "es": "no es un color", "fr": "pas une couleur", "de": "keine Farbe", "it": "non è un colore", "ru": "не цвет",
                    "hi": "रंग नहीं"]
        case .typeScale:
            return ["en": "Type scale", "es": "Escala tipográfica", "fr": "Échelle typographique", "de": "Schriftgrößen", "it": "Scala tipografica",
                    "ru": "Шкала шрифтов", "hi": "टाइप स्केल"]
        case .typeNote:
            return ["en": "Each tier in its own font stack; where a named font is not installed, the browser shows the next family.",
                    "es": "Cada nivel con su propia lista de fuentes; si una fuente no está instalada, el navegador muestra la siguiente familia.",
                    "fr": "Chaque niveau avec sa propre liste de polices\u{00A0}; si une police nommée n’est pas installée, le navigateur affiche la famille suivante.",
                    "de": "Jede Stufe mit ihrer eigenen Schriftliste; ist eine genannte Schrift nicht installiert, zeigt der Browser die nächste Familie.",
                    "it": "Ogni livello con il proprio elenco di font; se un font indicato non è installato, il browser mostra la famiglia successiva.",
                    "ru": "Каждый уровень — своим списком шрифтов; если названный шрифт не установлен, браузер показывает следующее семейство.",
                    "hi": "हर स्तर अपनी फ़ॉन्ट सूची में; जहाँ नामित फ़ॉन्ट इंस्टॉल नहीं है, ब्राउज़र अगला फ़ॉन्ट परिवार दिखाता है।"]
        case .sampleSentence:
            return ["en": "The quick brown fox jumps over the lazy dog", "es": "Así se verá el texto: año, canción, pingüino",
                    "fr": "Voici le texte\u{00A0}: été, garçon, cœur, où", "de": "So sieht der Text aus: Größe, Übung, schön",
                    "it": "Ecco come apparirà il testo: città, perché, più", "ru": "Так будет выглядеть текст: ёлка, съезд, щука",
                    "hi": "ऐसा दिखेगा टेक्स्ट: क्षमा, ज्ञान, श्रद्धा"]
        case .spacing:
            return ["en": "Spacing", "es": "Espaciado", "fr": "Espacements", "de": "Abstände", "it": "Spaziature", "ru": "Отступы", "hi": "स्पेसिंग"]
        case .radii:
            return ["en": "Radii", "es": "Radios", "fr": "Rayons", "de": "Radien", "it": "Raggi", "ru": "Радиусы", "hi": "कोनों की गोलाई"]
        case .shadows:
            return ["en": "Shadows", "es": "Sombras", "fr": "Ombres", "de": "Schatten", "it": "Ombre", "ru": "Тени", "hi": "छाया"]
        case .springs:
            return ["en": "Springs", "es": "Resortes", "fr": "Ressorts", "de": "Federn", "it": "Molle", "ru": "Пружины", "hi": "स्प्रिंग"]
        case .springsNote:
            return ["en": "How each spring moves from rest to its target; the dashed line is the target.",
                    "es": "Cómo se mueve cada resorte desde el reposo hasta su destino; la línea discontinua es el destino.",
                    "fr": "Comment chaque ressort va du repos à sa cible\u{00A0}; la ligne pointillée est la cible.",
                    "de": "Wie sich jede Feder aus der Ruhe zu ihrem Ziel bewegt; die gestrichelte Linie ist das Ziel.",
                    "it": "Come si muove ogni molla dalla quiete al suo obiettivo; la linea tratteggiata è l’obiettivo.",
                    "ru": "Как каждая пружина движется от покоя к цели; пунктир — это цель.",
                    "hi": "हर स्प्रिंग विराम से अपने लक्ष्य तक कैसे चलती है; डैश वाली रेखा लक्ष्य है।"]
        case .bouncy:
            return ["en": "Bouncy", "es": "Con rebote", "fr": "Rebondissant", "de": "Federnd", "it": "Rimbalzante", "ru": "Упругая", "hi": "उछाल वाली"]
        case .lively:
            return ["en": "Lively", "es": "Viva", "fr": "Vif", "de": "Lebhaft", "it": "Vivace", "ru": "Живая", "hi": "फुर्तीली"]
        case .smooth:
            return ["en": "Smooth", "es": "Suave", "fr": "Doux", "de": "Sanft", "it": "Morbida", "ru": "Плавная", "hi": "सहज"]
        case .springOvershoots:
            return ["en": "{feel}: overshoots {amount} and settles in about {time}", "es": "{feel}: se pasa un {amount} y se asienta en unos {time}",
                    "fr": "{feel}\u{00A0}: dépasse de {amount} et se stabilise en {time} environ",
                    "de": "{feel}: schwingt {amount} über und kommt nach etwa {time} zur Ruhe", "it": "{feel}: supera di {amount} e si assesta in circa {time}",
                    "ru": "{feel}: перелёт {amount}, успокаивается примерно за {time}", "hi": "{feel}: {amount} आगे निकलती है और लगभग {time} में ठहरती है"]
        case .springCritical:
            return ["en": "Critically damped: no overshoot, settles in about {time}",
                    "es": "Amortiguación crítica: sin pasarse, se asienta en unos {time}",
                    "fr": "Amortissement critique\u{00A0}: sans dépassement, se stabilise en {time} environ",
                    "de": "Kritisch gedämpft: kein Überschwingen, kommt nach etwa {time} zur Ruhe",
                    "it": "Smorzamento critico: nessun superamento, si assesta in circa {time}",
                    "ru": "Критическое затухание: без перелёта, успокаивается примерно за {time}",
                    "hi": "क्रांतिक अवमंदन: आगे नहीं निकलती, लगभग {time} में ठहरती है"]
        case .springOverdamped:
            return ["en": "Overdamped: no overshoot, creeps to rest in about {time}",
                    "es": "Sobreamortiguado: sin pasarse, llega despacio al reposo en unos {time}",
                    "fr": "Suramorti\u{00A0}: sans dépassement, rejoint lentement le repos en {time} environ",
                    "de": "Überdämpft: kein Überschwingen, kriecht in etwa {time} zur Ruhe",
                    "it": "Sovrasmorzato: nessun superamento, raggiunge lentamente la quiete in circa {time}",
                    "ru": "Сильное затухание: без перелёта, медленно успокаивается примерно за {time}",
                    "hi": "अति-अवमंदित: आगे नहीं निकलती, धीरे-धीरे लगभग {time} में ठहरती है"]
        case .springParameters:
            return ["en": "damping {damping}, stiffness {stiffness}, mass {mass} · damping ratio {ratio}",
                    "es": "amortiguación {damping}, rigidez {stiffness}, masa {mass} · razón de amortiguación {ratio}",
                    "fr": "amortissement {damping}, raideur {stiffness}, masse {mass} · taux d’amortissement {ratio}",
                    "de": "Dämpfung {damping}, Steifigkeit {stiffness}, Masse {mass} · Dämpfungsgrad {ratio}",
                    "it": "smorzamento {damping}, rigidità {stiffness}, massa {mass} · rapporto di smorzamento {ratio}",
                    "ru": "затухание {damping}, жёсткость {stiffness}, масса {mass} · коэффициент затухания {ratio}",
                    "hi": "अवमंदन {damping}, कठोरता {stiffness}, द्रव्यमान {mass} · अवमंदन अनुपात {ratio}"]
        case .footer:
            return ["en": "Generated by Livery from the tenant's resolved design tokens.",
                    "es": "Generada por Livery a partir de los tokens de diseño resueltos del tenant.",
                    "fr": "Générée par Livery à partir des tokens de design résolus du tenant.",
                    "de": "Von Livery aus den aufgelösten Design-Tokens des Tenants erzeugt.",
                    "it": "Generata da Livery dai token di design risolti del tenant.",
                    "ru": "Создано Livery по разрешённым дизайн-токенам тенанта.",
                    "hi": "Livery ने टेनेंट के रिज़ॉल्व किए गए डिज़ाइन टोकन से बनाया।"]
        }
    }
}
