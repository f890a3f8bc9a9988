/// The boxes a node's leaves and priorities live in when they are not held in the node itself.
extension Node {
    /// A value on the heap, one word to whoever holds it: 16 bytes of header and the value (`Box<Double>` is a
    /// 32-byte allocation).
    final class Box<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A priority, boxed (see `Storage.priorityBox`).
    typealias PriorityBox = Box<Priority>
    /// A leaf that has a priority, boxed so that `Content` is one word.
    typealias LeafBox = Box<LeafValue>
    /// A double leaf without a priority.
    typealias DoubleBox = Box<Double>
    /// An integer leaf without a priority beyond Int32's range (a timestamp, say).
    typealias IntegerBox = Box<Int64>
    /// A computed hash, boxed so one word (`OnceReference`) can hold it.
    typealias HashText = Box<String>

    /// A string leaf without a priority: its length, then its UTF-8 bytes in the same allocation, so a string leaf
    /// costs one allocation of 24 bytes plus its text where a box holding a `String` costs two (48 bytes, and the
    /// string's own buffer for anything past 15 bytes).
    ///
    /// The bytes are written once, in `make`, before the box is shared, and never after; so the box is safe to
    /// share between threads although `ManagedBuffer` cannot be declared `Sendable`.
    final class StringBox: ManagedBuffer<Int, UInt8> {
        /// A box holding `text`'s UTF-8 bytes.
        static func make(_ text: String) -> StringBox {
            var text = text
            return text.withUTF8 { Self.make(validUTF8: $0) }
        }

        /// A box holding `bytes`, which must be valid UTF-8.
        static func make(validUTF8 bytes: UnsafeBufferPointer<UInt8>) -> StringBox {
            let buffer = Self.create(minimumCapacity: bytes.count) { _ in bytes.count }
            let box = unsafeDowncast(buffer, to: StringBox.self)
            box.withUnsafeMutablePointerToElements { elements in
                if let source = bytes.baseAddress { elements.initialize(from: source, count: bytes.count) }
            }
            return box
        }

        /// A box holding `bytes` read as UTF-8, ill-formed sequences replaced as `String(decoding:as:)` does.
        static func make(decoding bytes: UnsafeRawBufferPointer) -> StringBox {
            let units = bytes.assumingMemoryBound(to: UInt8.self)
            if units.allSatisfy({ $0 < 0x80 }) { return Self.make(validUTF8: units) }
            return Self.make(String(decoding: units, as: UTF8.self))
        }

        /// Calls `body` with the string's UTF-8 bytes.
        func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
            try self.withUnsafeMutablePointers { count, elements in
                try body(UnsafeBufferPointer(start: elements, count: count.pointee))
            }
        }

        /// The string, built from the bytes (an allocation for anything past 15 bytes).
        var string: String {
            self.withUTF8 { String(decoding: $0, as: UTF8.self) }
        }

        /// Whether both boxes hold the same bytes.
        func utf8Equals(_ other: StringBox) -> Bool {
            self.withUTF8 { left in other.withUTF8 { right in left.elementsEqual(right) } }
        }
    }

    /// Calls `body` with the UTF-8 bytes of a string leaf without a priority; `nil` (without calling it) for any
    /// other node. Readers of many leaves (JSON, hashes, snapshots) use it to read a string without building one.
    func withStringLeafUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        guard case .string(let box) = self.representation else { return nil }
        return try box.withUTF8(body)
    }
}
