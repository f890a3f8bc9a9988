/// Names the types an encoder or decoder should hand through untouched, as FirebaseSharedSwift's protocol of the
/// same name does for `Database.Encoder.passthroughTypeResolver` (Firestore uses it for its own value types).
///
/// Hearth's coders go through JSON, and the database stores only JSON's types, whose `Codable` forms are already
/// what a passthrough would give; so the resolver is kept for source compatibility and not consulted.
public protocol StructureCodingPassthroughTypeResolver {
    /// Whether `t` should be handed through as it is.
    static func isPassthroughType<T>(_ t: T) -> Bool
}

/// The default resolver: no type is handed through.
enum NoPassthroughTypes: StructureCodingPassthroughTypeResolver {
    /// Never: every value is encoded with its `Codable` conformance.
    static func isPassthroughType<T>(_ t: T) -> Bool { false }
}
