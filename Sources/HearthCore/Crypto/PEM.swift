/// PEM text (RFC 7468): base64 DER between `-----BEGIN LABEL-----` and `-----END LABEL-----` lines.
public enum PEM {
    /// Every block in `text`, in order, with its label (`CERTIFICATE`, `PUBLIC KEY`, `RSA PUBLIC KEY`…).
    /// - Throws: `DERError` for a block without its end line or whose body is not base64.
    public static func blocks(in text: String) throws(DERError) -> [(label: String, der: [UInt8])] {
        var blocks: [(label: String, der: [UInt8])] = []
        var label: String?
        var body = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingSpaces
            if label == nil, line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = ""
            } else if let open = label, line == "-----END \(open)-----" {
                guard let der = Base64.decode(body) else { throw DERError("The PEM block \(open) is not base64.") }
                blocks.append((open, der))
                label = nil
            } else if label != nil {
                body += line
            }
        }
        if let open = label { throw DERError("The PEM block \(open) has no END line.") }
        return blocks
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
