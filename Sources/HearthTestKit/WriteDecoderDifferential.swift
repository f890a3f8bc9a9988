public import HearthCore
public import HearthWire

/// The differential check of the direct write decoders (`WireWrite(decoding:)`, `WriteRules.update(body:at:)`)
/// against the general way (a `JSONValue` of the whole document, then the write rules): wherever a direct decoder
/// answers, the general way must accept the same document and give the same write. Shared by the unit tests and the
/// `realtime` and `json` fuzz targets.
public enum WriteDecoderDifferential {
    /// A mutation in a form that compares: server values as a set, since a `JSONValue` object hands its members
    /// over in no particular order and the placeholders' order carries no meaning.
    public struct MutationSummary: Equatable, CustomStringConvertible {
        /// Whether the mutation sets a priority (`.setPriority`) rather than a value.
        public var isPriority: Bool
        public var path: Path
        public var node: Node
        public var placeholders: Set<ServerValuePlaceholder>
        public var pendingPriorities: [Path: Priority]
        /// The text a log may store as is (`WriteValue.sourceJSON`).
        public var sourceJSON: [UInt8]?

        /// The summary of `mutation`.
        public init(_ mutation: Mutation) {
            let (isPriority, path, value) =
                switch mutation {
                case .set(let path, let value): (false, path, value)
                case .setPriority(let path, let value): (true, path, value)
                }
            self.isPriority = isPriority
            self.path = path
            self.node = value.node
            self.placeholders = Set(value.placeholders)
            self.pendingPriorities = value.pendingPriorities
            self.sourceJSON = value.sourceJSON
        }

        public var description: String {
            "\(self.isPriority ? "priority" : "set") \(self.path) \(self.node) \(self.placeholders)"
                + " \(self.pendingPriorities)"
        }
    }

    /// A put or merge in a form that compares.
    public struct WriteSummary: Equatable, CustomStringConvertible {
        public var id: Int64
        public var action: String
        public var path: Path
        public var mutations: [MutationSummary]
        public var origin: WriteOrigin?

        /// The summary of `write`.
        public init(_ write: WireWrite) {
            self.id = write.id
            self.action = write.action
            self.path = write.path
            self.mutations = write.mutations.map(MutationSummary.init)
            self.origin = write.origin
        }

        public var description: String {
            "r=\(self.id) a=\(self.action) p=\(self.path) o=\(self.origin.map { "\($0)" } ?? "-") \(self.mutations)"
        }
    }

    /// What the general way makes of a realtime message.
    public enum GeneralOutcome: Equatable, CustomStringConvertible {
        /// Not a put without a hash or a merge (or not a message at all).
        case other
        /// A put or merge the write rules refuse, with the answer's error.
        case refused(WireProtocolError)
        /// An accepted put or merge.
        case write(WriteSummary)

        public var description: String {
            switch self {
            case .other: "other"
            case .refused(let error): "refused: \(error)"
            case .write(let write): "write \(write)"
            }
        }
    }

    /// `message` decoded the general way: `WireClientMessage`, then `WireRequest.mutations()`.
    public static func general(_ message: String) -> GeneralOutcome {
        guard case .request(let id, let request)? = try? WireClientMessage(decoding: message) else { return .other }
        let origin: WriteOrigin?
        switch request {
        case .put(_, _, nil, let named), .merge(_, _, let named): origin = named
        default: return .other
        }
        do {
            let (path, mutations) = try request.mutations()
            return .write(
                WriteSummary(
                    WireWrite(id: id, action: request.action, path: path, mutations: mutations, origin: origin)))
        } catch {
            return .refused(error)
        }
    }

    /// What the direct decoder made of a message (`WireWrite.Decoding`), in a form that compares.
    public enum DirectOutcome: Equatable, CustomStringConvertible {
        case write(WriteSummary)
        case notAWrite
        case declined

        /// The outcome of `decoding`.
        public init(_ decoding: WireWrite.Decoding) {
            switch decoding {
            case .write(let write): self = .write(WriteSummary(write))
            case .notAWrite: self = .notAWrite
            case .declined: self = .declined
            }
        }

        public var description: String {
            switch self {
            case .write(let write): "write \(write)"
            case .notAWrite: "not a write"
            case .declined: "declined"
            }
        }
    }

    /// Where `WireWrite(decoding:)` and the general way disagree about `message`, in words; nil when the direct
    /// decoder declined or gave the general way's write.
    public static func realtimeMismatch(_ message: String) -> String? {
        var scratch = WireWrite.Scratch()
        return Self.realtimeMismatch(message, reusing: &scratch)
    }

    /// `realtimeMismatch(_:)` with the direct decoder reusing `scratch`, kept from earlier messages as a connection
    /// keeps it: it must also decide exactly as with a fresh scratch, so nothing an earlier message left behind
    /// changes a later one's answer.
    public static func realtimeMismatch(_ message: String, reusing scratch: inout WireWrite.Scratch) -> String? {
        let kept = DirectOutcome(WireWrite.decoding(message, reusing: &scratch))
        let fresh = DirectOutcome(WireWrite.decoding(message))
        guard kept == fresh else { return "\(message): with a kept scratch \(kept), with a fresh one \(fresh)" }
        guard case .write(let direct) = kept else { return nil }
        let general = Self.general(message)
        guard general != .write(direct) else { return nil }
        return "\(message): direct \(direct), general \(general)"
    }

    /// What the general way makes of a REST PATCH body.
    public enum UpdateOutcome: Equatable, CustomStringConvertible {
        /// Not JSON, not an object, or refused by the write rules, and why.
        case refused(String)
        /// The members' keys in sorted order and their mutations in the same order.
        case update(keys: [String], mutations: [MutationSummary])

        public var description: String {
            switch self {
            case .refused(let reason): "refused: \(reason)"
            case .update(let keys, let mutations): "update \(keys) \(mutations)"
            }
        }
    }

    /// A PATCH body at `base` read the general way: a `JSONValue`, then `WriteRules.update(_:at:)`.
    public static func generalUpdate(body: [UInt8], at base: Path) -> UpdateOutcome {
        guard case .object(let members)? = try? JSONReader.parseValue(body) else { return .refused("not an object") }
        do {
            let mutations = try WriteRules.update(members, at: base)
            return .update(keys: members.keys.sorted().map(\.string), mutations: mutations.map(MutationSummary.init))
        } catch {
            return .refused("\(error)")
        }
    }

    /// Where `WriteRules.update(body:at:)` and the general way disagree about a PATCH body, in words; nil when the
    /// direct reader declined or gave the general way's update.
    public static func updateMismatch(body: [UInt8], at base: Path) -> String? {
        guard let (keys, mutations) = WriteRules.update(body: body, at: base) else { return nil }
        let direct = UpdateOutcome.update(keys: keys, mutations: mutations.map(MutationSummary.init))
        let general = Self.generalUpdate(body: body, at: base)
        guard general != direct else { return nil }
        return "\(String(decoding: body, as: UTF8.self)): direct \(direct), general \(general)"
    }
}
