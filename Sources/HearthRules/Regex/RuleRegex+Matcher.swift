extension RuleRegex {
    /// Runs a `Program` over a text the Thompson way: the set of instructions the NFA can be at is carried from one
    /// scalar to the next (each instruction at most once per position), so a run costs at most about twice the
    /// program's size per scalar, whatever the pattern. A match may start anywhere: a thread starting at the first
    /// instruction is added at every position (only at the first when the pattern starts with `^`).
    struct Matcher {
        /// The compiled expression to run.
        let program: Program

        init(_ program: Program) {
            self.program = program
        }

        /// Whether the program matches somewhere in `text`, spending one step of `budget` per instruction visited
        /// and one per scalar.
        /// - Throws: `RuleEvaluationError` when the budget runs out.
        func matches(_ text: String, budget: inout RuleBudget) throws(RuleEvaluationError) -> Bool {
            var current = ThreadList(capacity: self.program.instructions.count)
            var next = ThreadList(capacity: self.program.instructions.count)
            var stack: [Int] = []
            var scalars = text.unicodeScalars.makeIterator()
            var previous: Unicode.Scalar?
            var scalar = scalars.next()
            var atStart = true
            while true {
                var steps = 1
                if atStart || !self.program.isAnchoredAtStart {
                    steps += self.add(0, to: &current, stack: &stack, after: previous, before: scalar)
                }
                atStart = false
                if current.isEmpty {
                    try budget.spend(steps)
                    return false
                }
                let following = scalar == nil ? nil : scalars.next()
                for index in 0..<current.count {
                    let pc = current[index]
                    switch self.program.instructions[pc] {
                    case .match:
                        try budget.spend(steps)
                        return true
                    case .scalar(let set):
                        guard let scalar, self.program.sets[set].contains(scalar) else { continue }
                        steps += self.add(pc + 1, to: &next, stack: &stack, after: scalar, before: following)
                    default: continue
                    }
                }
                try budget.spend(steps)
                guard let consumed = scalar else { return false }
                swap(&current, &next)
                next.removeAll()
                previous = consumed
                scalar = following
            }
        }

        /// Adds the thread at `pc` to `list` with every instruction it reaches without consuming a scalar
        /// (following jumps, splits and assertions that hold between `previous` and `next`); answers how many
        /// instructions it visited.
        private func add(
            _ pc: Int, to list: inout ThreadList, stack: inout [Int], after previous: Unicode.Scalar?,
            before next: Unicode.Scalar?
        ) -> Int {
            var visited = 0
            stack.append(pc)
            while let pc = stack.popLast() {
                guard list.insert(pc) else { continue }
                visited += 1
                switch self.program.instructions[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assertion(let assertion):
                    if assertion.holds(after: previous, before: next) { stack.append(pc + 1) }
                case .scalar, .match: continue
                }
            }
            return visited
        }
    }

    /// A set of instruction indexes with constant-time insert, membership and clear, in insertion order (a sparse
    /// set).
    struct ThreadList {
        /// The members in insertion order (the first `count` slots).
        private var dense: [Int]
        /// For each instruction, where it would be in `dense` if it is a member.
        private var sparse: [Int]
        /// How many members there are.
        private(set) var count = 0

        /// An empty set for instructions `0..<capacity`.
        init(capacity: Int) {
            self.dense = Array(repeating: 0, count: capacity)
            self.sparse = Array(repeating: 0, count: capacity)
        }

        /// Whether no instruction is in the set.
        var isEmpty: Bool { self.count == 0 }

        /// The instruction added `index`-th.
        subscript(index: Int) -> Int { self.dense[index] }

        /// Adds `pc`; answers false when it was already there.
        mutating func insert(_ pc: Int) -> Bool {
            let slot = self.sparse[pc]
            if slot < self.count, self.dense[slot] == pc { return false }
            self.sparse[pc] = self.count
            self.dense[self.count] = pc
            self.count += 1
            return true
        }

        /// Empties the set, in constant time.
        mutating func removeAll() {
            self.count = 0
        }
    }
}
