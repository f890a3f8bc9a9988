import Testing

@testable import HearthReplication
@testable import HearthServer

@Suite struct RoutedShardClientTests {
    /// Reruns after an unconfirmed refusal back off as routing does (2 ms, doubling, at most 256 ms) and give up
    /// once they have waited the leader wait, so a leader cut off from its majority cannot spin.
    @Test func rerunsBackOffAndGiveUpAfterTheLeaderWait() {
        let wait = Duration.seconds(1)
        #expect(RoutedShardClient.rerunDelay(reruns: 1, leaderWait: wait) == .wait(.milliseconds(2)))
        #expect(RoutedShardClient.rerunDelay(reruns: 2, leaderWait: wait) == .wait(.milliseconds(4)))
        #expect(RoutedShardClient.rerunDelay(reruns: 8, leaderWait: wait) == .wait(.milliseconds(256)))
        #expect(RoutedShardClient.rerunDelay(reruns: 9, leaderWait: wait) == .wait(.milliseconds(256)))
        // 2 + 4 + … + 256 = 510 ms, then 256 ms each: the eleventh rerun would start after 1,022 ms, past the wait.
        #expect(RoutedShardClient.rerunDelay(reruns: 10, leaderWait: wait) == .wait(.milliseconds(256)))
        #expect(RoutedShardClient.rerunDelay(reruns: 11, leaderWait: wait) == .giveUp(waited: .milliseconds(1_022)))
    }
}
