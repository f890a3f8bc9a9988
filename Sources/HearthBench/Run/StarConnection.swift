import Hearth
import HearthSystem

/// Hands a connection's events to its owner, which is made after the connection; `close` lets go of the owner.
final class EventSink<Owner: AnyObject & Sendable>: Sendable {
    private let slot = Lock<Owner?>(nil)

    var owner: Owner? {
        get { self.slot.withLock { $0 } }
        set { self.slot.withLock { $0 = newValue } }
    }
}

extension PersistentConnection {
    /// The realtime connection of a run's client or reader `index`: the nodes in turn from `index` (mod their
    /// count), so connections spread over the nodes and each fails over to the others; events go to `sink`'s owner.
    static func star<Owner>(
        index: Int, nodes: [StarsOptions.Node], namespace: String, sink: EventSink<Owner>,
        handle: @escaping @Sendable (Owner, ServerEvent) -> Void
    ) -> PersistentConnection {
        let endpoints = nodes.indices.map { offset in
            let node = nodes[(index + offset) % nodes.count]
            return RealtimeEndpoint(host: node.host, port: node.port)
        }
        return PersistentConnection(
            configuration: ConnectionMachine.Configuration(endpoints: endpoints, namespace: namespace),
            onEvent: { event in
                if let owner = sink.owner { handle(owner, event) }
            })
    }
}
