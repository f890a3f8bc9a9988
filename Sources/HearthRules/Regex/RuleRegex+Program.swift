extension RuleRegex {
    /// A compiled regular expression: a Thompson NFA as a list of instructions, run by `Matcher` over all its
    /// states at once (never backtracking). Its size is at most `RuleRegex.maximumProgramSize` instructions.
    struct Program: Sendable {
        /// One step of the NFA.
        enum Instruction: Sendable, Equatable {
            /// Consume one scalar in `sets[index]`, then go on to the next instruction.
            case scalar(Int)
            /// Go on only if the assertion holds here.
            case assertion(Assertion)
            /// Go on at both targets.
            case split(Int, Int)
            /// Go on at the target.
            case jump(Int)
            /// The expression matched.
            case match
        }

        /// The program, starting at index 0 and ending with `match`.
        private(set) var instructions: [Instruction] = []
        /// The scalar sets the `scalar` instructions name.
        private(set) var sets: [ScalarSet] = []
        /// Where each set is in `sets`, so equal sets are stored once.
        private var setIndexes: [ScalarSet: Int] = [:]
        /// Whether every match must start at the start of the text (the pattern starts with `^` or `\A`), so the
        /// matcher need not try later starts.
        private(set) var isAnchoredAtStart = false

        /// Compiles `syntax` (whose `programSize` the parser checked).
        init(_ syntax: Syntax) {
            self.isAnchoredAtStart = Self.startsAnchored(syntax)
            self.emit(syntax)
            self.instructions.append(.match)
        }

        private static func startsAnchored(_ syntax: Syntax) -> Bool {
            switch syntax {
            case .assertion(.textStart): return true
            case .concatenation(let items): return items.first.map(Self.startsAnchored) ?? false
            case .alternation(let items): return items.allSatisfy(Self.startsAnchored)
            default: return false
            }
        }

        private mutating func emit(_ syntax: Syntax) {
            switch syntax {
            case .empty: break
            case .scalar(let set):
                self.instructions.append(.scalar(self.index(of: set)))
            case .assertion(let assertion):
                self.instructions.append(.assertion(assertion))
            case .concatenation(let items):
                for item in items { self.emit(item) }
            case .alternation(let items):
                self.alternate(items)
            case .repetition(let item, let min, let max):
                self.repeatItem(item, min: min, max: max)
            }
        }

        /// `a|b|c` as `split(a, split(b, c))`, each branch but the last jumping past the rest.
        private mutating func alternate(_ items: [Syntax]) {
            var jumps: [Int] = []
            for (position, item) in items.enumerated() {
                guard position < items.count - 1 else {
                    self.emit(item)
                    break
                }
                let split = self.placeholder()
                self.emit(item)
                jumps.append(self.placeholder())
                self.instructions[split] = .split(split + 1, self.instructions.count)
            }
            for jump in jumps { self.instructions[jump] = .jump(self.instructions.count) }
        }

        /// `min` copies, then either a loop (`max` nil) or `max - min` optional copies.
        private mutating func repeatItem(_ item: Syntax, min: Int, max: Int?) {
            var lastStart = self.instructions.count
            for _ in 0..<min {
                lastStart = self.instructions.count
                self.emit(item)
            }
            guard let max else {
                if min > 0 {
                    self.instructions.append(.split(lastStart, self.instructions.count + 1))
                } else {
                    let split = self.placeholder()
                    self.emit(item)
                    self.instructions.append(.jump(split))
                    self.instructions[split] = .split(split + 1, self.instructions.count)
                }
                return
            }
            var splits: [Int] = []
            for _ in min..<max {
                splits.append(self.placeholder())
                self.emit(item)
            }
            for split in splits { self.instructions[split] = .split(split + 1, self.instructions.count) }
        }

        /// Room for an instruction whose targets are known later.
        private mutating func placeholder() -> Int {
            self.instructions.append(.match)
            return self.instructions.count - 1
        }

        private mutating func index(of set: ScalarSet) -> Int {
            if let found = self.setIndexes[set] { return found }
            self.sets.append(set)
            self.setIndexes[set] = self.sets.count - 1
            return self.sets.count - 1
        }
    }
}
