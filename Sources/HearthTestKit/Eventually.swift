import Foundation

/// Checks `condition` every `interval` seconds until it holds or `seconds` pass, and says whether it held: for effects that
/// land just after what a test can observe (a socket closing, a timer firing, a snapshot being written).
///
/// `seconds` only bounds how long a failing check takes, so the default is generous: the whole suite on two cores
/// can starve a test process of CPU for ten seconds while its nodes start, and a check that holds returns at once.
/// A test that bounds how long something takes measures that time itself.
public func eventually(
    seconds: Double = 30, every interval: Double = 0.01, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .seconds(interval))
    }
    return try await condition()
}

/// `eventually` for blocking code on a dedicated thread (`onDedicatedThread`): sleeps the thread between checks.
public func eventuallyBlocking(
    seconds: Double = 30, every interval: Double = 0.005, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}
