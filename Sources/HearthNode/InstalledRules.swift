public import HearthRules

/// A rules file as given (its text, comments and all, which `GET /.settings/rules.json` answers) and as compiled.
///
/// A class of constants, so that taking the rules in force (every request checked under them does) copies one
/// reference, not the text and every part of the compiled tree.
public final class InstalledRules: Sendable {
    public let text: String
    public let document: RulesDocument

    public init(text: String, document: RulesDocument) {
        self.text = text
        self.document = document
    }

    /// Parses `text`, refusing a rules file with a mistake as a whole.
    public convenience init(text: String) throws(RulesError) {
        self.init(text: text, document: try RulesDocument.parse(text))
    }

    /// Everyone may read and write everything (the emulator's start, Firebase's "test mode").
    public static let open = InstalledRules.fixed(
        "{\n  \"rules\": {\n    \".read\": true,\n    \".write\": true\n  }\n}\n")
    /// Nobody but an administrator may read or write (Firebase's "locked mode").
    public static let closed = InstalledRules.fixed(
        "{\n  \"rules\": {\n    \".read\": false,\n    \".write\": false\n  }\n}\n")

    private static func fixed(_ text: String) -> InstalledRules {
        InstalledRules(text: text, document: (try? RulesDocument.parse(text)) ?? RulesDocument(root: RuleNode()))
    }

    /// Stored rules as compiled; rules that do not parse (only parsed ones are ever stored, so written by a
    /// newer version) deny everything rather than fall back to something more open.
    package convenience init(stored text: String) {
        self.init(text: text, document: (try? RulesDocument.parse(text)) ?? RulesDocument(root: RuleNode()))
    }
}
