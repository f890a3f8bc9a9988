import HearthNet
import Testing

@Suite struct SocketAddressTests {
    @Test(arguments: ["127.0.0.1:7000", "[::1]:7000", "10.1.2.3:0", "[fe80::1]:65535"])
    func parsesWhatItPrints(text: String) throws {
        let address = try SocketAddress(parsing: text)
        #expect(address.description == text)
        #expect(try SocketAddress(host: address.host, port: address.port) == address)
    }

    @Test(arguments: ["localhost:80", "127.0.0.1", "127.0.0.1:http", "::1:80", "[::1]80", "127.0.0.1:70000"])
    func rejectsWhatIsNotANumericHostAndPort(text: String) {
        #expect(throws: IOError.self) { try SocketAddress(parsing: text) }
        do {
            _ = try SocketAddress(parsing: text)
        } catch {
            #expect(error.code == .invalidAddress)
        }
    }
}
