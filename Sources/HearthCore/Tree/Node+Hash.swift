import Synchronization

/// Firebase's node hash (hash version 1): the `h` of listens and compare-and-set writes.
extension Node {
    /// The Firebase hash of this node: `""` for an empty node, else 28 characters of base64 SHA-1.
    ///
    /// A leaf hashes `P + T + ":" + V`, where `P` is `"priority:" + priorityText + ":"` when it has a priority,
    /// `T` is `number`, `string` or `boolean`, and `V` is the number's IEEE-754 bits as 16 big-endian lowercase hex
    /// digits (integers converted to `Double` first), the raw string, or `true`/`false`. A children node hashes `P`
    /// followed by `":" + key + ":" + childHash` for each child in priority order (`PriorityOrder`), skipping
    /// children whose hash is empty.
    ///
    /// Each storage caches its hash (two threads asking at the same moment may both compute it; one result is
    /// kept), so re-hashing a tree after an update costs O(depth × fan-out) plus the hashes of the new nodes.
    /// - Complexity: O(n + p log p) for a node with n children of which p have a priority, on first call; O(1) after.
    public var hash: String {
        guard let storage = self.storage else {
            // A leaf without a priority has no cache: its hash is one SHA-1 of its text (a string's bytes read in
            // place), but for the two booleans, whose hashes are kept (a map of flags, such as a post's stars, hashed
            // one SHA-1 per flag whenever the map changed).
            if case .boolean(let flag) = self.representation { return flag ? Self.trueHash : Self.falseHash }
            var hasher = SHA1()
            if self.withStringLeafUTF8({ Self.feedString($0, into: &hasher) }) == nil {
                guard let leaf = self.leafValue else { return "" }
                Self.feedLeaf(leaf, into: &hasher)
            }
            return Base64.encode(hasher.finalize())
        }
        if let cached = storage.cachedHash.load() { return cached.value }
        let hash = Self.computeHash(priority: storage.priority, content: storage.content)
        return storage.cachedHash.storeIfNil(HashText(hash)).value
    }

    private static let trueHash = Self.leafHash(.bool(true))
    private static let falseHash = Self.leafHash(.bool(false))

    private static func leafHash(_ value: LeafValue) -> String {
        var hasher = SHA1()
        Self.feedLeaf(value, into: &hasher)
        return Base64.encode(hasher.finalize())
    }

    /// Whether `storage` has cached its hash: such storage must not change in place, since the cache stays.
    static func hasCachedHash(_ storage: Storage) -> Bool {
        storage.cachedHash.load() != nil
    }

    /// Hashes one node's priority and content, reading (and filling) its children's caches.
    private static func computeHash(priority: Priority?, content: Content) -> String {
        var hasher = SHA1()
        if let priority {
            hasher.update("priority:".utf8)
            Self.feedPriority(priority, into: &hasher)
            hasher.update(":".utf8)
        }
        switch content {
        case .leaf(let box):
            Self.feedLeaf(box.value, into: &hasher)
        case .children(let children):
            var hasContent = priority != nil
            var prioritised: [ChildMap.Element] = []
            for child in children {
                if child.node.priority == nil {
                    hasContent = Self.feedChild(child, into: &hasher) || hasContent
                } else {
                    prioritised.append(child)
                }
            }
            prioritised.sort { PriorityOrder.precedes($0.node.priority, $0.key, $1.node.priority, $1.key) }
            for child in prioritised {
                hasContent = Self.feedChild(child, into: &hasher) || hasContent
            }
            guard hasContent else { return "" }
        }
        return Base64.encode(hasher.finalize())
    }

    /// Feeds `":" + key + ":" + hash` unless the child's hash is empty; returns whether anything was fed.
    private static func feedChild(_ child: ChildMap.Element, into hasher: inout SHA1) -> Bool {
        let childHash = child.node.hash
        guard !childHash.isEmpty else { return false }
        hasher.update(":".utf8)
        hasher.update(child.key.string.utf8)
        hasher.update(":".utf8)
        hasher.update(childHash.utf8)
        return true
    }

    private static func feedLeaf(_ value: LeafValue, into hasher: inout SHA1) {
        switch value {
        case .bool(let flag):
            hasher.update((flag ? "boolean:true" : "boolean:false").utf8)
        case .int(let number):
            Self.feedNumber(Double(number), into: &hasher)
        case .double(let number):
            Self.feedNumber(number, into: &hasher)
        case .string(let text):
            var text = text
            text.withUTF8 { Self.feedString($0, into: &hasher) }
        }
    }

    /// Feeds `"string:"` and the string's UTF-8 bytes.
    private static func feedString(_ bytes: UnsafeBufferPointer<UInt8>, into hasher: inout SHA1) {
        hasher.update("string:".utf8)
        hasher.update(UnsafeRawBufferPointer(bytes))
    }

    /// A priority hashes as the leaf it would be (`number:…` or `string:…`).
    private static func feedPriority(_ priority: Priority, into hasher: inout SHA1) {
        Self.feedLeaf(priority.leafValue, into: &hasher)
    }

    /// Feeds `"number:"` and the exact IEEE-754 bit pattern as 16 big-endian lowercase hex digits.
    private static func feedNumber(_ number: Double, into hasher: inout SHA1) {
        hasher.update("number:".utf8)
        hasher.update(Self.hex64(number))
    }

    /// The 16 lowercase hex digits of `number`'s binary64 bits, most significant first (`-0.0` → `8000000000000000`).
    static func hex64(_ number: Double) -> [UInt8] {
        let bits = number.bitPattern
        var digits: [UInt8] = []
        digits.reserveCapacity(16)
        for shift in stride(from: 60, through: 0, by: -4) {
            let nibble = UInt8(truncatingIfNeeded: bits >> UInt64(shift)) & 0x0F
            digits.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
        return digits
    }
}
