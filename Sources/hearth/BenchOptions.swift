/// The `--name value` options of every `hearth bench` command, checked against the names it accepts.
struct BenchOptions {
    var values: [String: String] = [:]

    init(_ arguments: [String], allowed: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard allowed.contains(name) else {
                throw UsageError("unknown option \(name); expected one of \(allowed.sorted().joined(separator: ", "))")
            }
            guard index + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
            self.values[name] = arguments[index + 1]
            index += 2
        }
    }

    func positiveInt(_ name: String) throws -> Int? {
        guard let text = self.values[name] else { return nil }
        guard let number = Int(text), number > 0 else { throw UsageError("\(name) needs a positive whole number") }
        return number
    }

    func positiveDouble(_ name: String) throws -> Double? {
        guard let text = self.values[name] else { return nil }
        guard let number = Double(text), number > 0 else { throw UsageError("\(name) needs a positive number") }
        return number
    }
}
