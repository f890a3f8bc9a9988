import Glibc
import HearthCore

extension ShardRouter {
    /// Cuts the JSON text of a value set at spine path `path` into the text of each shard's part, copying the bytes
    /// of every owned subtree as the client sent them instead of encoding the cut nodes again (a 1 GB import is
    /// cut at memory speed rather than rendered to JSON a second time).
    ///
    /// Part `i`'s text parses, under the write rules, to element `i` of `split(value, at: path, namespace:)` where
    /// `value` is what `json` parses to. Every object on the spine is written to every part, holding the members
    /// that stand on the spine (leaves, `.priority`, spine objects cut in turn) and, of the members at the shard
    /// depth, those the shard owns. Each part keeps the source's structure and member order, so duplicate keys
    /// resolve in every part as they did in the source.
    /// - Parameter json: valid JSON that the write rules accepted (the client's body, `WriteValue.sourceJSON`).
    /// - Returns: one text per shard, or nil when the text can't be cut by copying (an array, an escaped key or a
    ///   `.value` object on the spine, or a deep `path`): encode the parts instead.
    /// - Complexity: O(n) for n bytes.
    func split(json: [UInt8], at path: Path, namespace: String) -> [[UInt8]]? {
        guard self.isSpine(path) else { return nil }
        var hash = ShardHash(namespace: namespace)
        for key in path.keys { hash.append(key: key.string.utf8) }
        return json.withUnsafeBufferPointer { buffer in
            var cutter = SpineJSONCutter(bytes: buffer, router: self)
            return cutter.cut(depth: path.count, hash: hash)
        }
    }
}

/// FNV-1a over a namespace and the keys of a path, each key after a `/`: the hash `ShardRouter` routes by.
struct ShardHash {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    init(namespace: String) {
        self.mix(namespace.utf8)
    }

    mutating func append(key bytes: some Sequence<UInt8>) {
        self.mix(CollectionOfOne(0x2F))
        self.mix(bytes)
    }

    private mutating func mix(_ bytes: some Sequence<UInt8>) {
        // Over the bytes in one piece when they have it (a string's UTF-8 always does): stepping a string's UTF-8
        // view checks an index per byte, and the write loop routes every mutation of every write through here.
        if let mixed = bytes.withContiguousStorageIfAvailable({ Self.mixed(self.value, $0) }) {
            self.value = mixed
            return
        }
        self.value = Self.mixed(self.value, bytes)
    }

    /// `value` with `bytes` mixed in.
    private static func mixed(_ value: UInt64, _ bytes: some Sequence<UInt8>) -> UInt64 {
        var value = value
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        return value
    }
}

/// One pass over valid JSON text that copies spine structure to every part and each owned member to its shard.
private struct SpineJSONCutter {
    let bytes: UnsafeBufferPointer<UInt8>
    let router: ShardRouter
    var position = 0
    var parts: [[UInt8]]

    init(bytes: UnsafeBufferPointer<UInt8>, router: ShardRouter) {
        self.bytes = bytes
        self.router = router
        let estimate = bytes.count / router.shardCount + 64
        self.parts = (0..<router.shardCount).map { _ in
            var part: [UInt8] = []
            part.reserveCapacity(estimate)
            return part
        }
    }

    /// Cuts the whole text, a value standing at `depth` whose path hashes to `hash`.
    mutating func cut(depth: Int, hash: ShardHash) -> [[UInt8]]? {
        if self.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { self.position = 3 }
        self.skipWhitespace()
        guard self.position < self.bytes.count else { return nil }
        switch self.bytes[self.position] {
        case UInt8(ascii: "{"):
            guard self.cutObject(depth: depth, hash: hash) else { return nil }
        case UInt8(ascii: "["):
            return nil
        default:
            let start = self.position
            guard self.skipValue() else { return nil }
            self.appendToAll(start..<self.position)
        }
        self.skipWhitespace()
        return self.position == self.bytes.count ? self.parts : nil
    }

    /// Cuts the object at `position`, which stands on the spine at `depth`.
    private mutating func cutObject(depth: Int, hash: ShardHash) -> Bool {
        self.position += 1
        self.appendToAll(UInt8(ascii: "{"))
        self.skipWhitespace()
        if self.consume(UInt8(ascii: "}")) {
            self.appendToAll(UInt8(ascii: "}"))
            return true
        }
        while true {
            self.skipWhitespace()
            let keyStart = self.position
            guard self.peek() == UInt8(ascii: "\""), self.skipString() else { return false }
            let member = keyStart..<self.position
            let key = UnsafeBufferPointer(rebasing: self.bytes[(keyStart + 1)..<(self.position - 1)])
            guard !key.contains(UInt8(ascii: "\\")) else { return false }
            self.skipWhitespace()
            guard self.consume(UInt8(ascii: ":")) else { return false }
            self.skipWhitespace()
            let valueStart = self.position
            let isContainer = self.peek() == UInt8(ascii: "{") || self.peek() == UInt8(ascii: "[")
            var childHash = hash
            childHash.append(key: key)
            if key.first == UInt8(ascii: ".") {
                guard !isContainer, self.skipValue() else { return false }
                self.appendMemberToAll(member, value: valueStart..<self.position)
            } else if depth + 1 >= self.router.shardDepth {
                guard self.skipValue() else { return false }
                let shard = self.router.shard(childHash)
                self.appendMember(member, value: valueStart..<self.position, to: shard)
            } else if self.peek() == UInt8(ascii: "{") {
                for shard in self.parts.indices {
                    self.appendSeparator(to: shard)
                    self.parts[shard].append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[member]))
                    self.parts[shard].append(UInt8(ascii: ":"))
                }
                guard self.cutObject(depth: depth + 1, hash: childHash) else { return false }
            } else {
                guard !isContainer, self.skipValue() else { return false }
                self.appendMemberToAll(member, value: valueStart..<self.position)
            }
            self.skipWhitespace()
            if self.consume(UInt8(ascii: ",")) { continue }
            guard self.consume(UInt8(ascii: "}")) else { return false }
            self.appendToAll(UInt8(ascii: "}"))
            return true
        }
    }

    private func peek() -> UInt8? {
        self.position < self.bytes.count ? self.bytes[self.position] : nil
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard self.peek() == byte else { return false }
        self.position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = self.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            self.position += 1
        }
    }

    /// Skips the string at `position`, jumping from quote to quote; false when it is not terminated.
    private mutating func skipString() -> Bool {
        guard let base = self.bytes.baseAddress else { return false }
        let contentStart = self.position + 1
        var index = contentStart
        while index < self.bytes.count {
            guard let found = memchr(base + index, 0x22, self.bytes.count - index) else { return false }
            let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            var backslashes = 0
            while quote - backslashes > contentStart, self.bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 {
                self.position = quote + 1
                return true
            }
            index = quote + 1
        }
        return false
    }

    /// Skips the value at `position` (a scalar, or a container with everything inside it).
    private mutating func skipValue() -> Bool {
        guard let first = self.peek() else { return false }
        switch first {
        case UInt8(ascii: "\""):
            return self.skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while let byte = self.peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    guard self.skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                default:
                    break
                }
                self.position += 1
                if depth == 0 { return true }
            }
            return false
        default:
            while let byte = self.peek(),
                !(byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
                    || byte == 0x0A || byte == 0x0D || byte == 0x09)
            {
                self.position += 1
            }
            return true
        }
    }

    /// A member follows an earlier one in the part's open object unless the object was just opened.
    private mutating func appendSeparator(to shard: Int) {
        if self.parts[shard].last != UInt8(ascii: "{") { self.parts[shard].append(UInt8(ascii: ",")) }
    }

    private mutating func appendMember(_ key: Range<Int>, value: Range<Int>, to shard: Int) {
        self.appendSeparator(to: shard)
        self.parts[shard].append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[key]))
        self.parts[shard].append(UInt8(ascii: ":"))
        self.parts[shard].append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[value]))
    }

    private mutating func appendMemberToAll(_ key: Range<Int>, value: Range<Int>) {
        for shard in self.parts.indices { self.appendMember(key, value: value, to: shard) }
    }

    private mutating func appendToAll(_ range: Range<Int>) {
        for shard in self.parts.indices {
            self.parts[shard].append(contentsOf: UnsafeBufferPointer(rebasing: self.bytes[range]))
        }
    }

    private mutating func appendToAll(_ byte: UInt8) {
        for shard in self.parts.indices { self.parts[shard].append(byte) }
    }
}
