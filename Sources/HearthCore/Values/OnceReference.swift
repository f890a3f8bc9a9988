public import Synchronization

/// A reference set at most once and read from any thread without a lock: one atomic word holding the address of the
/// retained object, 0 until it is set.
///
/// It stands where an `AtomicLazyReference` did: that type's every `load()` asked the runtime for its generic
/// type's metadata (a hashed cache lookup), and both uses load often — a stored node's Firebase hash
/// (`Node.Storage.cachedHash`, looked at for each node `Node.set` would edit in place: 1 % of the write loop) and a
/// WebSocket's writer (loaded for every message sent to it: 2–3 % of the commit thread, which sends every realtime
/// acknowledgement). Inlinable, this one is specialised in the module that uses it, and a load is one atomic read.
/// Two threads racing to set it set equal objects (a hash computed twice) or the first wins; the loser's object is
/// released.
public struct OnceReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    @usableFromInline let address: Atomic<UInt>

    /// An empty reference.
    @inlinable public init() {
        self.address = Atomic(0)
    }

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: self.address.load(ordering: .acquiring)) {
            Unmanaged<Object>.fromOpaque(pointer).release()
        }
    }

    /// The object stored, or nil before one is.
    @inlinable public func load() -> Object? {
        guard let pointer = UnsafeRawPointer(bitPattern: self.address.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Stores `object` unless one is stored already; returns the one stored afterwards.
    @inlinable @discardableResult public func storeIfNil(_ object: Object) -> Object {
        let retained = Unmanaged.passRetained(object)
        let (exchanged, original) = self.address.compareExchange(
            expected: 0, desired: UInt(bitPattern: retained.toOpaque()), ordering: .acquiringAndReleasing)
        guard !exchanged, let pointer = UnsafeRawPointer(bitPattern: original) else { return object }
        retained.release()
        return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }
}
