/// Filling in a write's server values just before it is applied (reference §5).
extension WriteValue {
    /// The node to store, with every placeholder replaced.
    ///
    /// - `timestamp` becomes `.int(now)`.
    /// - `increment(d)` adds `d` to the number currently at the placeholder's location in `existing`: two integers
    ///   add as `Int64`, falling back to a double sum on overflow; a double on either side gives the double sum; a
    ///   missing or non-numeric current value gives `d` itself.
    /// - Priority placeholders work the same way against the current priority at their location.
    /// - Pending priorities (of nodes that were empty only because their content was placeholders) apply after the
    ///   values are in place, then priority placeholders.
    /// - Parameters:
    ///   - existing: the current node at the write's path, as it is just before this write.
    ///   - now: the server's clock, milliseconds since the Unix epoch; one value for the whole write.
    /// - Complexity: O(p × depth × log n) for p placeholders; O(1) when there are none.
    public func resolved(existing: Node, now: Int64) -> Node {
        guard !self.placeholders.isEmpty else { return self.node }
        var result = self.node
        for placeholder in self.placeholders where !placeholder.isPriority {
            let current = existing.node(at: placeholder.path).leafValue
            let value = Self.resolve(placeholder.value, current: current, now: now)
            result.set(Node(value), at: placeholder.path)
        }
        for (path, priority) in self.pendingPriorities {
            result.setPriority(priority, at: path)
        }
        for placeholder in self.placeholders where placeholder.isPriority {
            let current = existing.node(at: placeholder.path).priority.map(LeafValue.init(priority:))
            let value = Self.resolve(placeholder.value, current: current, now: now)
            result.setPriority(Priority(number: value), at: placeholder.path)
        }
        return result
    }

    /// The value a server value takes given the current value at its location.
    static func resolve(_ serverValue: ServerValue, current: LeafValue?, now: Int64) -> LeafValue {
        switch serverValue {
        case .timestamp:
            return .int(now)
        case .increment(let delta):
            // An unrepresentable sum is refused before the write is ordered (`unrepresentableIncrement`); should
            // one still come up here, the value stays as it was rather than becoming infinity (stored as null).
            return Self.increment(current, by: delta) ?? current ?? delta
        }
    }

    /// `current` plus `delta` as Firebase adds them: two integers add as `Int64`, falling back to a double sum on
    /// overflow; a double on either side gives the double sum; a missing or non-numeric current value gives `delta`.
    /// - Returns: nil when the sum is not a finite number (it overflowed past ±1.8e308), which no write may store.
    public static func increment(_ current: LeafValue?, by delta: LeafValue) -> LeafValue? {
        let sum: Double
        switch (current, delta) {
        case (.int(let base)?, .int(let step)):
            let (exact, overflow) = base.addingReportingOverflow(step)
            guard overflow else { return .int(exact) }
            sum = Double(base) + Double(step)
        case (.int(let base)?, .double(let step)): sum = Double(base) + step
        case (.double(let base)?, .int(let step)): sum = base + Double(step)
        case (.double(let base)?, .double(let step)): sum = base + step
        default: return delta
        }
        return sum.isFinite ? .double(sum) : nil
    }

    /// Where (relative to the write's path) an increment of this value would give a number no value can hold when
    /// applied to `existing` (the current node at the write's path); nil when every increment fits.
    /// - Complexity: O(p × depth × log n) for p placeholders.
    public func unrepresentableIncrement(existing: Node) -> Path? {
        for placeholder in self.placeholders {
            guard case .increment(let delta) = placeholder.value else { continue }
            let current =
                placeholder.isPriority
                ? existing.node(at: placeholder.path).priority.map(LeafValue.init(priority:))
                : existing.node(at: placeholder.path).leafValue
            if Self.increment(current, by: delta) == nil { return placeholder.path }
        }
        return nil
    }
}

extension ServerValue {
    /// The value this server value takes where `current` stands now, at server time `now` (the rule of
    /// `WriteValue.resolved`, for one placeholder).
    public func resolved(current: LeafValue?, now: Int64) -> LeafValue {
        WriteValue.resolve(self, current: current, now: now)
    }
}

extension LeafValue {
    /// A priority seen as a leaf value, so increments treat both alike.
    init(priority: Priority) {
        switch priority {
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        }
    }
}

extension Priority {
    /// The priority holding a resolved server value, or `nil` for a boolean (which no valid delta produces).
    init?(number value: LeafValue) {
        switch value {
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .bool: return nil
        }
    }
}
