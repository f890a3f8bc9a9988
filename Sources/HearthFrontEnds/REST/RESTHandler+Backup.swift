import HearthCore
import HearthDatabase
import HearthNet
import HearthNode
import HearthRules
import HearthSystem

/// `GET /.backup`: a consistent cut of the whole database as one backup file (`BackupFormat`), what
/// `hearth backup` saves.
extension RESTHandler {
    static let backupPath = "/.backup"

    /// Answers `GET /.backup` with the backup file, streamed. First every shard's read barrier (in a cluster, Raft's
    /// read index on each shard, then this node's view catching up with it), so every write acknowledged anywhere
    /// before the request is in the backup; then one O(1) capture of the view's roots, which never show part of a
    /// multi-path write. The backup is for administrators, or for anyone where the rules let everyone read the root
    /// of every namespace (their backup leaves out the stored rules, the `.settings` namespace, which only
    /// administrators read); anyone else gets Firebase's 401, as for `/.cluster`. A node sends at most
    /// `BackupSlots.limit` backups at once; one more is answered 503.
    func backupReply(_ request: HTTPRequest) async -> HTTPReply {
        guard request.method == "GET" else {
            var response = HTTPResponse.jsonError(status: 405, message: "\(request.path) answers GET only.")
            response.headers.add("Allow", "GET")
            return .response(response)
        }
        let parameters = Dictionary(request.query, uniquingKeysWith: { first, _ in first })
        guard
            let identity = try? self.access.authenticate(RESTRequest.credential(request, parameters: parameters))
                .identity
        else { return .response(RESTError.permissionDenied.response) }
        // Refused before anything is done for it (as `/.cluster`), and again on the namespaces of the cut.
        if identity != .admin, !self.mayBackUp(self.database.view.backupCut().roots.keys, identity) {
            return .response(RESTError.permissionDenied.response)
        }
        guard let slot = self.backups.take() else {
            return .response(
                .jsonError(
                    status: 503,
                    message: "This node is already sending \(self.backups.limit) backups, the most it sends at once; "
                        + "try again when one of them ends."))
        }
        do {
            try await self.database.readBarrier(namespace: self.configuration.defaultNamespace, path: .root)
        } catch {
            return .response(.jsonError(status: 503, message: "No consistent backup can be taken now: \(error)"))
        }
        var (roots, cut) = self.database.view.backupCut()
        if identity != .admin {
            // The stored rules are for administrators only (as `GET /.settings/rules.json`).
            roots[AccessControl.settingsNamespace] = nil
            guard self.mayBackUp(roots.keys, identity) else { return .response(RESTError.permissionDenied.response) }
        }
        let header = BackupHeader(
            release: HearthVersion.release, writtenMilliseconds: self.database.now(),
            shardDepth: self.database.coordinator.router.shardDepth, cut: cut, namespaces: Array(roots.keys))
        self.log.info(
            "backup.started",
            [
                "namespaces": "\(roots.count)", "cut": cut.map(String.init).joined(separator: ","),
                "remote": request.remoteAddress,
            ])
        let head = HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "application/octet-stream"), ("Cache-Control", "no-store")]))
        return .stream(head, BackupStream(header: header, roots: roots, slot: slot, log: self.log))
    }

    /// Whether `identity` may read the root of each of `namespaces` (but the stored rules') and of the default one.
    private func mayBackUp(_ namespaces: some Sequence<String>, _ identity: AuthIdentity) -> Bool {
        Set(namespaces).subtracting([AccessControl.settingsNamespace]).union([self.configuration.defaultNamespace])
            .allSatisfy { self.access.mayRead(identity, namespace: $0, path: .root) }
    }
}
