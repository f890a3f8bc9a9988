public import HearthCore

/// A realtime put (`p`) or merge (`m`) without a compare-and-set hash, decoded straight from its message's bytes to
/// the write it asks for: the request id, the action, the path and the `Mutation`s under the write rules, and the
/// write's origin.
///
/// It is the reactor's fast way to the same result as `WireClientMessage(decoding:)` followed by the write rules
/// (`WireRequest.mutations()`), without the `JSONValue` of the whole message in between: the envelope is walked
/// with a `JSONCursor` and the data is built into `WriteValue`s from the bytes. Decoding returns nil for every
/// other message and for anything unusual (see `WireWrite+Decoding.swift`), and the caller then decodes the general
/// way, so no answer, error text or order of checks depends on which decoder ran.
public struct WireWrite: Sendable {
    /// The client's request id `r`.
    public var id: Int64
    /// `p` or `m`.
    public var action: String
    /// The path the request names (without a trailing `.priority`).
    public var path: Path
    /// The write under the write rules: one set for a put, one per key in sorted key order for a merge.
    public var mutations: [Mutation]
    /// Hearth's `o`, when present (see `WriteOrigin`).
    public var origin: WriteOrigin?

    /// A write as the general decoder and the write rules give it.
    public init(id: Int64, action: String, path: Path, mutations: [Mutation], origin: WriteOrigin?) {
        self.id = id
        self.action = action
        self.path = path
        self.mutations = mutations
        self.origin = origin
    }
}
