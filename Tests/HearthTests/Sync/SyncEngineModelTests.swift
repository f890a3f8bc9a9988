import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import Hearth

/// The model-based test of the event stream: seeded random local writes, transactions, purges, onDisconnect sets, other
/// clients' writes, acks, rejections, disconnections and listeners with random queries, against `ModelServer`.
///
/// Transactions back off after stale answers as in production (`TransactionBackoff.standard`), the clock moving
/// 7 ms per action and the engine ticked when its wake-up comes.
///
/// After every call each listener's own copy, built only from the events it heard, must hold exactly the children
/// its view shows; its last value must be the view's data whenever the view is complete; events must come in
/// Firebase's order with previous keys from the view's order. Once everything is answered, every view shows what
/// its query gives over the server's data.
@Suite struct SyncEngineModelTests {
    /// What one listener has heard.
    struct Copy {
        let view: ViewKey
        var children: [Key: Node] = [:]
        var value: Node?
    }

    struct Run {
        var random: SeededRandom
        var engine = SyncEngine()
        var server = ModelServer()
        var copies: [ListenerID: Copy] = [:]
        var nextListener: Int64 = 1
        var now: Int64 = 1_000

        static let keys = ["a", "b", "c", "d"].map { Key(unchecked: $0) }

        static let queries: [QuerySpec] = {
            var queries: [QuerySpec] = [.default]
            let x = Path(keys: [Key(unchecked: "x")])
            let built = try? [
                QuerySpec(index: .key, limit: .first(2)),
                QuerySpec(index: .key, limit: .last(2)),
                QuerySpec(index: .value),
                QuerySpec(index: .value, limit: .last(2)),
                QuerySpec(index: .child(x), start: QueryBound(.int(3))),
                QuerySpec(index: .key, start: QueryBound(.string("b")), end: QueryBound(.string("c"))),
            ]
            queries += built ?? []
            return queries
        }()

        init(seed: UInt64) {
            self.random = SeededRandom(seed: seed)
        }

        mutating func path(depth: ClosedRange<Int>) -> Path {
            let count = Int.random(in: depth, using: &self.random)
            return Path(keys: (0..<count).map { _ in Self.keys.randomElement(using: &self.random) ?? Self.keys[0] })
        }

        mutating func value() -> Node {
            switch Int.random(in: 0..<5, using: &self.random) {
            case 0: return .empty
            case 1: return Node(.int(Int64.random(in: 0..<10, using: &self.random)))
            case 2:
                return Node.empty.updatingChild(
                    Key(unchecked: "x"), to: Node(.int(Int64.random(in: 0..<6, using: &self.random))))
            default:
                var node = Node.empty
                for key in Self.keys where Bool.random(using: &self.random) {
                    node = node.updatingChild(key, to: Node(.int(Int64.random(in: 0..<10, using: &self.random))))
                }
                return node
            }
        }

        /// A transaction's update: one more than the number there, or 1.
        static let count: TransactionUpdate = { current in
            guard case .int(let value)? = current.leafValue else { return .commit(WriteValue(node: Node(.int(1)))) }
            return .commit(WriteValue(node: Node(.int(value + 1))))
        }

        /// Takes one random action.
        mutating func act() throws {
            switch Int.random(in: 0..<100, using: &self.random) {
            case 0..<12 where self.copies.count < 6:
                let id = ListenerID(self.nextListener)
                self.nextListener += 1
                let view = ViewKey(
                    path: self.path(depth: 0...2), query: Self.queries.randomElement(using: &self.random) ?? .default)
                self.copies[id] = Copy(view: view)
                try self.deliver(
                    self.engine.addListener(id, at: view.path, query: view.query, kinds: Set(DataEventKind.allCases)))
            case 12..<18:
                guard let id = self.copies.keys.sorted().randomElement(using: &self.random) else { return }
                self.copies[id] = nil
                try self.deliver(self.engine.removeListener(id))
            case 18..<34:
                let path = self.path(depth: 1...3)
                let (_, output) = self.engine.set(WriteValue(node: self.value()), at: path, now: self.now)
                try self.deliver(output)
            case 34..<36:
                let path = self.path(depth: 1...3)
                let increment = try WriteValue(json: ServerValue.increment(.int(1)).jsonValue, depth: path.count)
                let (_, output) = self.engine.set(increment, at: path, now: self.now)
                try self.deliver(output)
            case 36..<38:
                let priority =
                    Bool.random(using: &self.random) ? Priority.int(Int64.random(in: 0..<3, using: &self.random)) : nil
                let (_, output) = self.engine.setPriority(priority, at: self.path(depth: 1...2))
                try self.deliver(output)
            case 38..<46:
                let path = self.path(depth: 0...2)
                let first = Key(unchecked: "a")
                let second = Self.keys.randomElement(using: &self.random) ?? first
                var values = [(relative: Path(keys: [first]), value: WriteValue(node: self.value()))]
                if second != first {
                    values.append((Path(keys: [second, Key(unchecked: "x")]), WriteValue(node: self.value())))
                }
                let (_, output) = self.engine.update(values, at: path, now: self.now)
                try self.deliver(output)
            case 46..<54:
                for event in self.server.write(self.value(), at: self.path(depth: 1...3)) {
                    try self.deliver(self.engine.handle(event, now: self.now))
                }
            case 54..<58:
                if self.server.isOnline {
                    self.server.disconnect()
                    try self.deliver(self.engine.handle(.disconnected, now: self.now))
                } else {
                    for event in self.server.reconnect() { try self.deliver(self.engine.handle(event, now: self.now)) }
                }
            case 58..<64:
                let id = TransactionID(self.nextListener)
                self.nextListener += 1
                let local = Bool.random(using: &self.random)
                let path = self.path(depth: 1...3)
                try self.deliver(
                    self.engine.runTransaction(id, at: path, applyLocally: local, now: self.now, update: Self.count))
            case 64..<67:
                let token = RequestToken(self.nextListener)
                self.nextListener += 1
                let path = self.path(depth: 1...3)
                let request = WireRequest.onDisconnectPut(
                    path: path.description,
                    data: self.value().jsonValue(format: .export)
                )
                try self.deliver(self.engine.onDisconnect(token, request))
            case 67:
                try self.deliver(self.engine.purgeWrites())
            default:
                let reject = Int.random(in: 0..<10, using: &self.random) == 0
                for event in self.server.step(reject: reject) {
                    try self.deliver(self.engine.handle(event, now: self.now))
                }
            }
            self.now += 7
            if let wake = self.engine.nextWake, wake <= self.now {
                try self.deliver(self.engine.tick(now: self.now))
            }
        }

        /// Hands commands to the server and events to the copies, checking them against the views.
        mutating func deliver(_ output: SyncOutput) throws {
            self.server.receive(output.commands)
            var heard: [ListenerID: [DataEvent]] = [:]
            for effect in output.effects {
                if case .event(let id, let event) = effect { heard[id, default: []].append(event) }
            }
            for (id, events) in heard {
                try self.apply(events, to: id)
            }
            for (id, copy) in self.copies {
                let shown = try #require(self.engine.views[copy.view]?.shown, "listener \(id) lost its view")
                let expected = Dictionary(uniqueKeysWithValues: shown.ordered.map { ($0.key, $0.node) })
                #expect(copy.children == expected, "listener \(id) at \(copy.view.path) heard other children")
                if shown.isComplete {
                    #expect(copy.value == shown.node, "listener \(id) at \(copy.view.path) heard another value")
                }
            }
        }

        mutating func apply(_ events: [DataEvent], to id: ListenerID) throws {
            let copy = try #require(self.copies[id], "events for unknown listener \(id)")
            let shown = try #require(self.engine.views[copy.view]?.shown)
            let order = shown.ordered.map(\.key)
            let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            var children = copy.children
            var value = copy.value
            var lastKind = DataEventKind.childRemoved
            var lastPosition = -1
            for event in events {
                #expect(event.kind >= lastKind, "\(event.kind) after \(lastKind) for listener \(id)")
                if event.kind != lastKind { lastPosition = -1 }
                lastKind = event.kind
                guard event.kind != .value else {
                    value = event.node
                    continue
                }
                let key = try #require(event.path.last)
                #expect(event.path == copy.view.path.appending(key))
                if event.kind == .childRemoved {
                    #expect(children.removeValue(forKey: key) == event.node, "removed \(key) it did not have")
                    continue
                }
                let at = try #require(position[key], "\(event.kind) \(key) is not shown")
                #expect(at > lastPosition, "\(event.kind) \(key) out of order")
                lastPosition = at
                #expect(event.previousSiblingKey == (at > 0 ? order[at - 1] : nil), "wrong previous key for \(key)")
                if event.kind == .childAdded {
                    #expect(children[key] == nil, "added \(key) twice")
                } else {
                    #expect(children[key] != nil, "\(event.kind) \(key) it did not have")
                }
                if event.kind != .childMoved { children[key] = event.node }
            }
            #expect(events.filter { $0.kind == .value }.count <= 1)
            self.copies[id]?.children = children
            self.copies[id]?.value = value
        }

        static func json(_ node: Node) -> String {
            String(decoding: node.jsonBytes(format: .export), as: UTF8.self)
        }

        /// Reconnects and lets the server answer everything, then checks that every view shows the server's data.
        mutating func settle() throws {
            if !self.server.isOnline {
                for event in self.server.reconnect() { try self.deliver(self.engine.handle(event, now: self.now)) }
            }
            var rounds = 0
            while !self.server.inbox.isEmpty || self.engine.nextWake != nil {
                rounds += 1
                try #require(rounds < 10_000, "the exchange never settled")
                if let wake = self.engine.nextWake, self.server.inbox.isEmpty {
                    // Nothing is in flight: the clock moves on to the end of the back-off.
                    self.now = max(self.now, wake)
                    try self.deliver(self.engine.tick(now: self.now))
                }
                for event in self.server.step(reject: false) {
                    try self.deliver(self.engine.handle(event, now: self.now))
                }
            }
            #expect(self.engine.writes.writes.isEmpty)
            #expect(self.engine.transactions.isEmpty)
            for (id, copy) in self.copies {
                let shown = try #require(self.engine.views[copy.view]?.shown)
                let data = self.server.truth.node(at: copy.view.path)
                let expected = copy.view.loadsAllData ? data : copy.view.query.evaluate(data)
                #expect(shown.isComplete, "listener \(id) at \(copy.view.path) never completed")
                #expect(
                    shown.node == expected,
                    "listener \(id) at \(copy.view.path) \(copy.view.query.wireObject) shows \(Self.json(shown.node)), the server has \(Self.json(expected))"
                )
                #expect(copy.value == expected)
            }
        }
    }

    @Test(arguments: 0..<32)
    func eventStreamMatchesTheViews(seed: UInt64) throws {
        var run = Run(seed: seed)
        try run.deliver(run.engine.handle(.connected(serverTimeOffsetMilliseconds: 0)))
        for _ in 0..<300 {
            try run.act()
        }
        try run.settle()
    }
}
