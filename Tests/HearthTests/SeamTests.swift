import HearthCore
import Testing

@testable import Hearth

@Suite struct SeamTests {
    @Test func writeIDsOrderAsTheyWereMade() {
        #expect(WriteID(1) < WriteID(2))
        #expect(!(WriteID(2) < WriteID(2)))
    }

    @Test func listenKeysDifferByTag() {
        let path = Path(keys: [])
        #expect(ListenKey(path: path, query: nil, tag: nil) != ListenKey(path: path, query: nil, tag: 1))
    }
}
