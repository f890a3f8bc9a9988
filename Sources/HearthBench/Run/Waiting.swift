/// The two ways a run waits on its connections.
enum Waiting {
    /// Polls `condition` every 10 ms until it holds (true) or `timeout` passes (false).
    static func until(timeout: Duration, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Runs `body` for every item at once; true when every one returned true.
    static func all<Item: Sendable>(_ items: [Item], _ body: @escaping @Sendable (Item) async -> Bool) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            for item in items { group.addTask { await body(item) } }
            var all = true
            for await ok in group { all = all && ok }
            return all
        }
    }
}
