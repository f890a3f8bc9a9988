/// The time as the connection machine is told it: a clock for deadlines and the wall clock for the server's
/// offset.
///
/// `monotonic` should keep counting while the computer sleeps (Swift's `ContinuousClock`), so that after a sleep
/// the keep-alive sees at once how long the connection has been silent.
package struct ConnectionTime: Sendable, Hashable {
    /// Time since an arbitrary fixed point; only differences mean anything.
    package var monotonic: Duration
    /// Milliseconds since the Unix epoch, the unit of the handshake's `ts`.
    package var unixMilliseconds: Int64

    package init(monotonic: Duration, unixMilliseconds: Int64) {
        self.monotonic = monotonic
        self.unixMilliseconds = unixMilliseconds
    }
}
