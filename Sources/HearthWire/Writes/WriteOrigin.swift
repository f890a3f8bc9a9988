public import HearthCore

/// Who sent a write and where it stands in their sequence: the key under which every shard remembers that it
/// applied the write, so that the same write sent again (its answer was lost with a connection, the node restarted,
/// the client failed over to another node, or the app restarted and sent its logged writes again) is answered
/// without being applied twice. Raft's client sessions, as in Ongaro's thesis §6.3.
///
/// A Hearth extension of the realtime protocol: a put or merge may carry it as
/// `"o": {"c": <client>, "s": <sequence>, "a": <settledBelow>}`. Official SDKs do not send it, and lose nothing.
/// `client` is chosen at random by the client (it names one run of one app, or one persisted write log), and the
/// client numbers its writes from 1 up. `settledBelow` says every write of this client numbered below it has been
/// answered and will never be sent again, so the shards may forget them.
public struct WriteOrigin: Sendable, Hashable {
    /// How long a client id may be, in UTF-8 bytes.
    public static let maximumClientLength = 64

    public var client: String {
        didSet { self.clientHash = Self.stableHash(of: self.client) }
    }
    public var sequence: UInt64
    public var settledBelow: UInt64
    /// `stableHash(of: client)`, computed once where the origin is made: every shard that checks or records the
    /// write (and the read view that records it again) goes by it instead of hashing the id's bytes itself.
    public private(set) var clientHash: UInt64

    /// - Throws: `WireProtocolError` (`.invalidRequest`) when `client` is empty, longer than 64 bytes or holds
    ///   anything but ASCII letters, digits, `-` and `_`; when `sequence` is 0; or when `settledBelow` exceeds
    ///   `sequence` (this very write is not answered yet).
    public init(client: String, sequence: UInt64, settledBelow: UInt64) throws(WireProtocolError) {
        let bytes = client.utf8
        guard !bytes.isEmpty, bytes.count <= Self.maximumClientLength, bytes.allSatisfy(Self.isClientByte) else {
            throw WireProtocolError(
                .invalidRequest,
                "A write's origin client (o.c) must be 1 to 64 ASCII letters, digits, '-' or '_'.")
        }
        try self.init(checkedClient: client, sequence: sequence, settledBelow: settledBelow)
    }

    /// `init(client:sequence:settledBelow:)` for a client id that passed its check before: a decoder that keeps the
    /// last client a connection named (every write names it again) checks only the numbers.
    init(checkedClient client: String, sequence: UInt64, settledBelow: UInt64) throws(WireProtocolError) {
        guard sequence > 0 else {
            throw WireProtocolError(.invalidRequest, "A write's origin sequence (o.s) must be a positive integer.")
        }
        guard settledBelow <= sequence else {
            throw WireProtocolError(
                .invalidRequest, "A write's origin settled mark (o.a) cannot exceed its own sequence (o.s).")
        }
        self.client = client
        self.sequence = sequence
        self.settledBelow = settledBelow
        self.clientHash = Self.stableHash(of: client)
    }

    /// Reads the `o` member of a put or merge body.
    /// - Throws: `WireProtocolError` (`.invalidRequest`) naming the member that is missing or mistyped.
    public init(wire: JSONValue) throws(WireProtocolError) {
        guard case .object = wire, let client = wire["c"]?.stringValue else {
            throw WireProtocolError(
                .invalidRequest, #"A write's origin (o) must be {"c": client, "s": sequence, "a": settled below}."#)
        }
        guard let sequence = wire["s"]?.intValue, sequence > 0 else {
            throw WireProtocolError(.invalidRequest, "A write's origin sequence (o.s) must be a positive integer.")
        }
        guard let settled = wire["a"]?.intValue, settled >= 0 else {
            throw WireProtocolError(
                .invalidRequest, "A write's origin settled mark (o.a) must be a non-negative integer.")
        }
        try self.init(client: client, sequence: UInt64(sequence), settledBelow: UInt64(settled))
    }

    /// The `o` member as sent.
    public var wireValue: JSONValue {
        .object([
            "c": .string(self.client), "s": .int(Int64(clamping: self.sequence)),
            "a": .int(Int64(clamping: self.settledBelow)),
        ])
    }

    /// A new client id: 22 letters and digits drawn from `generator` (about 131 bits).
    public static func randomClient(using generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<22).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// FNV-1a of `client`'s UTF-8: the same in every process (Swift's own hash is seeded per run), so whatever is
    /// spread by it (`WriteSessions`' buckets) is spread alike everywhere.
    public static func stableHash(of client: String) -> UInt64 {
        // Over the string's own bytes when it has them in one piece (a native string always does): stepping its
        // UTF-8 view checks an index per byte.
        if let hash = client.utf8.withContiguousStorageIfAvailable({ Self.fnv1a($0) }) { return hash }
        return Self.fnv1a(client.utf8)
    }

    /// FNV-1a of `bytes`.
    private static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    private static func isClientByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
