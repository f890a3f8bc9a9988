import HearthWire
import Testing

/// `WireFrameAssembler.isWholeMessage` says yes exactly for a frame that `onFrame` returns as it is, leaving the
/// assembler as it was; every other frame (a count, a part of a message, one past the limit) goes to `onFrame`.
@Suite struct WireFrameWholeMessageTests {
    private static let frames = [
        #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a","d":1}}}"#, "", "0", "7", "123456", "1234567", "12a", "x",
        " 1", "-1", "9999", "10000", String(repeating: "x", count: 10), String(repeating: "x", count: 11), "é",
    ]

    /// Whether `frame`, fed to `assembler`, comes back as it is with the assembler unchanged.
    private static func passesThrough(_ frame: String, _ assembler: WireFrameAssembler) -> Bool {
        var fed = assembler
        guard let message = try? fed.onFrame(frame) else { return false }
        return message == frame && fed.isMidMessage == assembler.isMidMessage && fed.heldBytes == assembler.heldBytes
    }

    /// Between messages and in the middle of one, for frames of every kind.
    @Test(arguments: Self.frames)
    func isWholeMessageAgreesWithOnFrame(frame: String) throws {
        let idle = WireFrameAssembler(maximumMessageBytes: 10)
        var midMessage = idle
        _ = try midMessage.onFrame("2")
        for assembler in [idle, midMessage] {
            var bytes = frame
            let isWhole = bytes.withUTF8 { assembler.isWholeMessage($0) }
            #expect(isWhole == Self.passesThrough(frame, assembler), "\(frame), mid-message: \(assembler.isMidMessage)")
        }
    }
}
