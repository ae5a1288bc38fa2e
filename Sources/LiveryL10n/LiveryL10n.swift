// LiveryL10n: the localization layer. ICU MessageFormat messages are parsed into a tree
// (MessageFormat*.swift) and plural categories come from CLDR's rules (Plural*.swift, with a
// table generated from CLDR data by `make cldr`).
