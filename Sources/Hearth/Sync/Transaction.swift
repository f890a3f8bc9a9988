package import HearthCore
package import HearthWire

/// The shell's number for one transaction.
package struct TransactionID: Sendable, Hashable {
    package var rawValue: Int64

    package init(_ rawValue: Int64) { self.rawValue = rawValue }
}

/// What a transaction's update function decided for the value it was given (`TransactionResult`).
package enum TransactionDecision: Sendable {
    /// Write this value (it may hold server values).
    case commit(WriteValue)
    /// Give up: nothing is written.
    case abort
}

/// A transaction's update function: called with the value at its location as the client knows it, again after
/// every stale answer. Like FirebaseDatabase's, it runs on the engine's own queue, never the callback queue.
package typealias TransactionUpdate = @Sendable (Node) -> TransactionDecision

/// How a transaction ended (the arguments of Firebase's completion block).
package enum TransactionOutcome: Sendable, Equatable {
    /// The server took the value; the node is the value as the client shows it.
    case committed(Node)
    /// The update function aborted; the node is the value it was last given.
    case aborted(Node)
    /// The transaction failed: too many retries (`maxretry`), overridden by a set (`set`), or refused by the server.
    case failed(WireProtocolError)
}

/// One transaction in the engine's queue (Firebase's `Transaction` record).
struct TransactionRecord: Sendable {
    enum Status: Sendable {
        /// Run locally, waiting to be sent.
        case run
        /// Sent; waiting for the server's answer.
        case sent
        /// Sent, then overridden: it fails with the error unless the server already took it.
        case sentNeedsAbort(WireProtocolError)
        /// Must fail with the error at the next rerun.
        case needsAbort(WireProtocolError)
    }

    let id: TransactionID
    let path: Path
    let update: TransactionUpdate
    let applyLocally: Bool
    /// The order transactions were started in; queued transactions run in it.
    let order: Int64
    var status: Status = .run
    var retries = 0
    /// The write layering this transaction's value over the cache.
    var writeID: WriteID
    /// The value the update function last saw.
    var input: Node
    /// The value it last returned, as sent (server values unresolved).
    var output: WriteValue
    /// The same value as the client shows it.
    var resolved: Node

    var isSent: Bool {
        switch self.status {
        case .sent, .sentNeedsAbort: true
        case .run, .needsAbort: false
        }
    }
}

/// Firebase's errors for the engine's own failures, with its status words as codes.
package enum SyncErrors {
    /// A transaction that met stale data 25 times.
    package static let maxRetries = WireProtocolError(
        WireProtocolError.Code(status: "maxretry"),
        "The transaction had too many retries; the data changes too often at this location for a transaction to win."
    )
    /// A transaction overridden by a set or update at, above or below its location.
    package static let overriddenBySet = WireProtocolError(
        WireProtocolError.Code(status: "set"),
        "The transaction was overridden by a subsequent set."
    )
    /// A read made offline of data the client never received.
    package static func offline(_ path: Path) -> WireProtocolError {
        WireProtocolError(
            WireProtocolError.Code(status: "disconnected"),
            "The client is offline and has no cached data for \(path); go online or listen to it first."
        )
    }
    /// A write or transaction `purgeOutstandingWrites` cancelled (Firebase's status and code 3).
    package static let writeCanceled = WireProtocolError(
        WireProtocolError.Code(status: "write_canceled"),
        "Write cancelled by user: purgeOutstandingWrites() dropped it before the server confirmed it."
    )
    /// A listen the server revoked.
    package static let revoked = WireProtocolError(.permissionDenied, "Permission denied")
}
