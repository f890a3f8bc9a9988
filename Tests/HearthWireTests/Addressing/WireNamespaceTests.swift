import HearthWire
import Testing

/// Which namespace a host names: the first label of a name of two or more labels, nothing for addresses and single
/// labels, with or without a port.
@Suite struct WireNamespaceTests {
    /// IPv4 and IPv6 addresses, single labels and degenerate hosts name no namespace, whether or not the bytes
    /// alone can tell.
    @Test func addressesAndSingleLabelsNameNone() {
        for host in [
            "127.0.0.1:9471", "127.0.0.1", "1.2.3.4", "localhost", "localhost:9000", "[::1]:9000", "[::1]", "", ":",
            "...", "1..2:", ":80", "٣.٤",
        ] {
            #expect(WireNamespace.named(byHost: host) == nil, "\(host)")
        }
    }

    /// A host name of two or more labels names its first, port or not; a first label that is not a database name
    /// names none.
    @Test func hostNamesNameTheirFirstLabel() {
        #expect(WireNamespace.named(byHost: "chat-app.example.com") == "chat-app")
        #expect(WireNamespace.named(byHost: "chat-app.example.com:443") == "chat-app")
        #expect(WireNamespace.named(byHost: "10.0.0.1.example.com") == "10")
        #expect(WireNamespace.named(byHost: "db_1.local:80") == "db_1")
        #expect(WireNamespace.named(byHost: "bad!name.example.com") == nil)
        #expect(WireNamespace.named(byHost: "é.example.com") == nil)
    }

    /// `ns` wins over the host, and a host that names nothing leaves the default.
    @Test func resolveOrder() throws {
        #expect(try WireNamespace.resolve(explicit: "x", host: "a.b.c", default: "d") == "x")
        #expect(try WireNamespace.resolve(explicit: nil, host: "a.b.c", default: "d") == "a")
        #expect(try WireNamespace.resolve(explicit: nil, host: "127.0.0.1:9000", default: "d") == "d")
        #expect(throws: WireNamespaceError.self) { try WireNamespace.resolve(explicit: "a b", host: nil, default: "d") }
    }
}
