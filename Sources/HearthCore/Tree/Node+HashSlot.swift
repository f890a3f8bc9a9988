import Synchronization

extension Node {
    /// Where a stored node keeps its Firebase hash once computed: one word, the address of a retained `HashText`, 0
    /// until then.
    ///
    /// It replaces an `AtomicLazyReference<HashText>`, whose every `load()` asked the runtime for the generic type's
    /// metadata (a hashed cache lookup): 2–3 % of the commit thread and 1 % of the write loop, since `Node.set` looks
    /// at the cache of each node it would edit in place. `Atomic<UInt>` is inlined whole. The slot is filled at
    /// most once: two threads racing to fill it computed the same text, and the one that loses releases its copy.
    struct HashSlot: ~Copyable, Sendable {
        private let address = Atomic<UInt>(0)

        /// An empty slot.
        init() {}

        deinit {
            if let pointer = UnsafeRawPointer(bitPattern: self.address.load(ordering: .acquiring)) {
                Unmanaged<HashText>.fromOpaque(pointer).release()
            }
        }

        /// The hash stored, or nil before one is.
        func load() -> HashText? {
            guard let pointer = UnsafeRawPointer(bitPattern: self.address.load(ordering: .acquiring)) else {
                return nil
            }
            return Unmanaged<HashText>.fromOpaque(pointer).takeUnretainedValue()
        }

        /// Stores `text` unless a hash is stored already; returns the one the slot holds afterwards.
        func storeIfNil(_ text: HashText) -> HashText {
            let retained = Unmanaged.passRetained(text)
            let (exchanged, original) = self.address.compareExchange(
                expected: 0, desired: UInt(bitPattern: retained.toOpaque()), ordering: .acquiringAndReleasing)
            guard !exchanged, let pointer = UnsafeRawPointer(bitPattern: original) else { return text }
            retained.release()
            return Unmanaged<HashText>.fromOpaque(pointer).takeUnretainedValue()
        }
    }
}
