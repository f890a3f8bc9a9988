import HearthCore

/// A rules file (`database.rules.json`): `{"rules": {...}}`, each level holding `.read`, `.write`, `.validate`
/// (an expression string or a boolean), `.indexOn` (a child name or a list of them), named children and at most
/// one `$wildcard`. Comments are allowed as Firebase allows them.
public struct RulesDocument: Sendable, Equatable {
    public let root: RuleNode
    /// Whether a write check can read `newData` (see `RuleNode.writesReadNewData`): when it cannot, the caller
    /// need not build the data as the write would leave it, and may pass the data before it as `after`.
    public let writesReadNewData: Bool
    /// Whether a write check can read the stored data (`data`, `root`, or `newData` built from it; see
    /// `RuleNode.writesReadData`): when it cannot, the caller need not fetch the data, and may pass an empty tree.
    public let writesReadData: Bool
    /// Whether every write is allowed without reading anything: the root's `.write` is `true` and no rule sits
    /// below it or validates it (the open rules a single node starts with). A check then costs no walk
    /// (`checkWrite`), where walking the rules for a star's four paths costs several microseconds on the
    /// front end's thread.
    let grantsEveryWrite: Bool
    /// The most steps the rules may spend on one request (`RuleBudget`); a request that needs more is refused.
    public var evaluationLimit = RuleBudget.defaultLimit

    public init(root: RuleNode) {
        self.root = root
        self.writesReadNewData = root.writesReadNewData
        self.writesReadData = root.writesReadData
        self.grantsEveryWrite = root.write == .bool(true) && root.validate == nil && root.children.isEmpty
    }

    /// Reads a rules file.
    /// - Throws: `RulesError` with the line of the mistake and Firebase's style of message.
    public static func parse(_ text: String) throws(RulesError) -> RulesDocument {
        let bytes: [UInt8]
        do {
            bytes = try RulesSource.strippingComments(text)
        } catch {
            throw Self.error(error.message, at: error.offset, in: Array(text.utf8))
        }
        let json: JSONValue
        do {
            json = try JSONReader.parseValue(bytes)
        } catch {
            throw Self.error("Invalid JSON: \(error.message)", at: error.offset, in: bytes)
        }
        guard case .object(let top) = json, let rules = top["rules"], top.count == 1 else {
            throw Self.error("The file must be an object with one member, \"rules\".", at: 0, in: bytes)
        }
        let reader = Reader(bytes: bytes)
        return RulesDocument(root: try reader.node(rules, keys: ["rules"]))
    }

    static func error(_ message: String, at offset: Int, in bytes: [UInt8]) -> RulesError {
        let (line, column) = RulesSource.lineAndColumn(of: offset, in: bytes)
        return RulesError(message, line: line, column: column)
    }

    /// Turns the JSON of one level into a `RuleNode`, naming the line of any mistake.
    private struct Reader {
        let bytes: [UInt8]

        func node(_ json: JSONValue, keys: [String]) throws(RulesError) -> RuleNode {
            guard case .object(let members) = json else {
                throw self.error("Rules at \(Self.path(keys)) must be an object.", keys)
            }
            var node = RuleNode()
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                let key = name.string
                let here = keys + [key]
                switch key {
                case ".read": node.read = try self.expression(value, here)
                case ".write": node.write = try self.expression(value, here)
                case ".validate": node.validate = try self.expression(value, here)
                case ".indexOn": node.indexOn = try self.indexOn(value, here)
                case _ where key.hasPrefix("$"):
                    if let other = node.wildcard {
                        throw self.error("Two wildcards at one level: \(other) and \(key); keep one.", here)
                    }
                    node.wildcard = key
                    node.children[name] = try self.node(value, keys: here)
                case _ where key.hasPrefix("."):
                    throw self.error("Unknown rule \(key); use .read, .write, .validate or .indexOn.", here)
                default:
                    do {
                        _ = try Key(validating: key)
                    } catch {
                        throw self.error("Invalid key \(key): \(error.message)", here)
                    }
                    node.children[name] = try self.node(value, keys: here)
                }
            }
            return node
        }

        private func expression(_ json: JSONValue, _ keys: [String]) throws(RulesError) -> RuleExpression {
            switch json {
            case .bool(let value): return .bool(value)
            case .string(let text):
                do {
                    return try RuleParser.parse(text)
                } catch {
                    let member = RulesSource.offset(of: keys, in: self.bytes)
                    let offset = RulesSource.offset(ofDecoded: error.offset, inStringAfter: member, in: self.bytes)
                    throw RulesDocument.error(error.message, at: offset ?? member, in: self.bytes)
                }
            default:
                throw self.error("\(keys.last ?? "") must be a boolean or an expression in a string.", keys)
            }
        }

        private func indexOn(_ json: JSONValue, _ keys: [String]) throws(RulesError) -> [String] {
            switch json {
            case .string(let name): return [name]
            case .array(let names):
                var result: [String] = []
                for name in names {
                    guard case .string(let text) = name else {
                        throw self.error(".indexOn must list child names as strings.", keys)
                    }
                    result.append(text)
                }
                return result
            default: throw self.error(".indexOn must be a child name or a list of them.", keys)
            }
        }

        private func error(_ message: String, _ keys: [String]) -> RulesError {
            RulesDocument.error(message, at: RulesSource.offset(of: keys, in: self.bytes), in: self.bytes)
        }

        private static func path(_ keys: [String]) -> String {
            "/" + keys.dropFirst().joined(separator: "/")
        }
    }
}
