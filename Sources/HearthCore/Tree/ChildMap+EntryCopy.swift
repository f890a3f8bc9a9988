/// Copying and destroying a B+tree leaf's entries without the reference counting that most of them do not need.
///
/// A copied leaf (the first write to it after a published snapshot) copied each entry with its value witnesses: a
/// `swift_bridgeObjectRetain` for the key and a call that switches on the node, and the old version's destruction
/// the same again — ~32 calls a leaf, though most entries hold nothing counted: a key of at most 15 UTF-8 bytes is
/// a small string, held in the string itself, and a leaf of `true`, a small integer or nothing is held in the node.
/// Such an entry is copied as its bytes and destroyed by forgetting them, which is exactly what its value witnesses
/// do for it; any other entry is copied and destroyed as before.
extension ChildMap.Entry {
    /// Whether copying this entry touches no reference: its key's string is small and its node is held inline.
    /// Read through `entry` without copying it.
    @inline(__always) static func isTrivial(_ entry: UnsafePointer<Self>) -> Bool {
        switch entry.pointee.node.representation {
        case .empty, .integer, .boolean: Key.isSmall(entry.pointee.key)
        case .double, .largeInteger, .string, .stored: false
        }
    }

    /// Initialises `count` entries at `target` with copies of those at `source` (the ranges must not overlap).
    static func initialize(_ target: UnsafeMutablePointer<Self>, copying source: UnsafePointer<Self>, count: Int) {
        for index in 0..<count {
            if Self.isTrivial(source + index) {
                let bytes = MemoryLayout<Self>.size
                UnsafeMutableRawPointer(target + index).copyMemory(from: source + index, byteCount: bytes)
            } else {
                (target + index).initialize(to: source[index])
            }
        }
    }

    /// Deinitialises the `count` entries at `entries`.
    static func deinitialize(_ entries: UnsafeMutablePointer<Self>, count: Int) {
        for index in 0..<count where !Self.isTrivial(entries + index) {
            (entries + index).deinitialize(count: 1)
        }
    }
}
