/// Splits a request-target into its percent-decoded path and query items (RFC 3986 §2.1, HTML form `+` rule).
///
/// Kept apart from the parser so front ends and tests can decode targets without a connection. All operations are
/// O(n) in the target length.
package enum HTTPTargetDecoder {
    /// Decodes `target` in origin form (`/a/b?x=1`), absolute form (`http://host/a?x=1`) or asterisk form (`*`).
    package static func decode(
        _ target: String
    ) throws(HTTPParserError) -> (path: String, query: [(name: String, value: String)]) {
        // The usual target, a path with no query, fragment or escape, is its own path: no copy of its bytes.
        if target.utf8.first == UInt8(ascii: "/"),
            !target.utf8.contains(where: {
                $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%")
            })
        {
            return (target, [])
        }
        let bytes = Array(target.utf8)
        if bytes == [UInt8(ascii: "*")] { return ("*", []) }
        var start = 0
        if bytes.first != UInt8(ascii: "/") {
            guard let afterScheme = Self.endOfSchemeAndAuthority(bytes) else {
                throw .malformed("The request target \(Self.quoted(target)) must start with \"/\".")
            }
            start = afterScheme
        }
        var end = bytes.count
        if let hash = bytes[start...].firstIndex(of: UInt8(ascii: "#")) { end = hash }
        let questionMark = bytes[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[start..<(questionMark ?? end)]
        guard let path = Self.percentDecoded(pathBytes, plusIsSpace: false) else {
            throw .malformed("The path in \(Self.quoted(target)) has an invalid percent escape or is not UTF-8.")
        }
        var query: [(name: String, value: String)] = []
        if let questionMark {
            for item in bytes[(questionMark + 1)..<end].split(
                separator: UInt8(ascii: "&"),
                omittingEmptySubsequences: true
            ) {
                let equals = item.firstIndex(of: UInt8(ascii: "="))
                let nameBytes = item[item.startIndex..<(equals ?? item.endIndex)]
                let valueBytes = equals.map { item[($0 + 1)..<item.endIndex] } ?? item[item.endIndex..<item.endIndex]
                guard let name = Self.percentDecoded(nameBytes, plusIsSpace: true),
                    let value = Self.percentDecoded(valueBytes, plusIsSpace: true)
                else {
                    throw .malformed(
                        "The query in \(Self.quoted(target)) has an invalid percent escape or is not UTF-8."
                    )
                }
                query.append((name: name, value: value))
            }
        }
        return (path.isEmpty ? "/" : path, query)
    }

    /// Decodes `%XX` escapes (and `+` as a space when asked); `nil` for a bad escape or bytes that are not UTF-8.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) || (plusIsSpace && bytes.contains(UInt8(ascii: "+"))) else {
            return String(validating: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = Self.hexValue(bytes[index + 1]),
                    let low = Self.hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// For an absolute-form target, the index where its path starts (or the end, meaning `/`).
    private static func endOfSchemeAndAuthority(_ bytes: [UInt8]) -> Int? {
        let lowered = bytes.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        let schemeLength: Int
        if lowered.starts(with: Array("http://".utf8)) {
            schemeLength = 7
        } else if lowered.starts(with: Array("https://".utf8)) {
            schemeLength = 8
        } else {
            return nil
        }
        let rest = bytes[schemeLength...]
        return rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
    }

    static func quoted(_ text: String) -> String {
        let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return "\"\(shown)\""
    }
}
