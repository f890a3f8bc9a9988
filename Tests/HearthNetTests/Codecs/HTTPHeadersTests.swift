import Testing

@testable import HearthNet

/// Field lookups compare names case-insensitively and give the first match, as a plain search over the pairs does.
@Suite struct HTTPHeadersTests {
    private static let fields: [(String, String)] = [
        ("Host", "h"), ("content-type", "application/json"), ("Connection", "keep-alive, Upgrade"),
        ("X-A", "1"), ("x-a", "2"), ("Expect", " 100-Continue "), ("Connection", "close"),
    ]

    /// Every name asked (present in any case, absent, a prefix of a present one) answers what a search of the pairs
    /// with lowercased names answers.
    @Test func lookupsMatchAPlainSearch() {
        let headers = HTTPHeaders(Self.fields)
        for name in ["host", "HOST", "Content-Type", "x-a", "X-A", "connection", "expect", "X", "", "Hosts", "é"] {
            let expected = Self.fields.first { $0.0.lowercased() == name.lowercased() }?.1
            #expect(headers[name] == expected, "\(name)")
        }
    }

    /// A token is found in any field of that name, trimmed and compared case-insensitively, as splitting every
    /// such field on commas finds it.
    @Test func tokensMatchASplitOfEveryFieldOfTheName() {
        let headers = HTTPHeaders(Self.fields)
        for (token, name) in [
            ("close", "Connection"), ("upgrade", "connection"), ("keep-alive", "CONNECTION"),
            ("100-continue", "Expect"),
            ("1", "X-A"), ("2", "x-a"), ("3", "X-A"), ("close", "Expect"), ("h", "Missing"),
        ] {
            let expected = Self.fields.filter { $0.0.lowercased() == name.lowercased() }.contains { field in
                field.1.split(separator: ",").contains {
                    $0.trimmingCharacters(in: " \t").lowercased() == token.lowercased()
                }
            }
            #expect(headers.containsToken(token, in: name) == expected, "\(token) in \(name)")
        }
    }
}

extension Substring {
    /// Without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(self.drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
