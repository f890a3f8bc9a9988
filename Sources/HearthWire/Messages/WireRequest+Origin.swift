/// A write's origin (`WriteOrigin`), read and replaced the same way for a put and a merge.
extension WireRequest {
    /// The origin a put or merge names; nil for any other request.
    public var origin: WriteOrigin? {
        switch self {
        case .put(_, _, _, let origin), .merge(_, _, let origin): origin
        default: nil
        }
    }

    /// The same put or merge naming `origin` instead; any other request unchanged.
    public func with(origin: WriteOrigin?) -> WireRequest {
        switch self {
        case .put(let path, let data, let hash, _): .put(path: path, data: data, hash: hash, origin: origin)
        case .merge(let path, let data, _): .merge(path: path, data: data, origin: origin)
        default: self
        }
    }
}
