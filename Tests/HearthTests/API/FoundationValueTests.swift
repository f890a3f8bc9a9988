import Foundation
import HearthCore
import Testing

@testable import Hearth

/// The app's values to JSON and the database's back: the shapes FirebaseDatabase's docs cast to, on Linux too.
@Suite struct FoundationValueTests {
    private func json(_ value: Any?) throws -> JSONValue {
        try FoundationValue.json(value, at: "/test")
    }

    @Test func numbersBooleansAndStringsKeepTheirKinds() throws {
        #expect(try self.json(true) == .bool(true))
        #expect(try self.json(NSNumber(value: false)) == .bool(false))
        #expect(try self.json(42) == .int(42))
        #expect(try self.json(NSNumber(value: 42)) == .int(42))
        #expect(try self.json(Int8(-3)) == .int(-3))
        #expect(try self.json(NSNumber(value: Int8(1))) == .int(1))
        #expect(try self.json(UInt64.max) == .double(Double(UInt64.max)))
        #expect(try self.json(2.5) == .double(2.5))
        #expect(try self.json(Float(0.5)) == .double(0.5))
        #expect(try self.json(NSNumber(value: 2.5)) == .double(2.5))
        #expect(try self.json("hi") == .string("hi"))
        #expect(try self.json(NSString(string: "hi")) == .string("hi"))
        #expect(try self.json(nil) == .null)
        #expect(try self.json(NSNull()) == .null)
    }

    @Test func dictionariesAndArraysNest() throws {
        let value: [String: Any] = ["name": "Ada", "tags": ["a", 1], "nested": ["ok": true] as [AnyHashable: Any]]
        #expect(
            try self.json(value)
                == .object([
                    "name": .string("Ada"), "tags": .array([.string("a"), .int(1)]),
                    "nested": .object(["ok": .bool(true)]),
                ]))
        #expect(try self.json(NSDictionary(dictionary: ["n": NSNumber(value: 1)])) == .object(["n": .int(1)]))
        #expect(try self.json(ServerValue.timestamp()) == .object([".sv": .string("timestamp")]))
        #expect(try self.json(ServerValue.increment(2)) == .object([".sv": .object(["increment": .int(2)])]))
    }

    @Test func refusesWhatTheDatabaseCannotStoreAndSaysWhere() {
        #expect(throws: DatabaseValueError.self) { try self.json(Date()) }
        #expect(throws: DatabaseValueError.self) { try self.json(Double.nan) }
        #expect(throws: DatabaseValueError.self) { try self.json([1: "x"] as [AnyHashable: Any]) }
        do {
            _ = try FoundationValue.json(["a": ["b": Date()]], at: "/test")
            Issue.record("a Date was accepted")
        } catch {
            #expect(error.message.contains("/test/a/b"))
            #expect(error.message.contains("Date"))
        }
    }

    @Test func snapshotsHandOutTheShapesTheDocsCastTo() throws {
        let node = try WriteValue.make(["age": 36, "name": "Ada", "admin": true, "score": 2.5], at: .root).node
        let value = try #require(node.foundationValue as? [String: AnyObject])
        #expect(value["age"] as? Int == 36)
        #expect(value["name"] as? String == "Ada")
        #expect(value["admin"] as? Bool == true)
        #expect(value["score"] as? Double == 2.5)
        #expect(node.foundationValue as? NSDictionary != nil)
        let offset = try WriteValue.make(-120, at: .root).node
        #expect(offset.foundationValue as? TimeInterval == -120)
        let flags = try WriteValue.make(["a": true, "b": false], at: .root).node
        #expect(flags.foundationValue as? [String: Bool] == ["a": true, "b": false])
    }

    @Test func integerKeysFillingMoreThanHalfTheRangeBecomeArrays() throws {
        let dense = try WriteValue.make(["0": "a", "1": "b", "3": "d"], at: .root).node
        let array = try #require(dense.foundationValue as? [Any])
        #expect(array.count == 4)
        #expect(array[2] is NSNull)
        #expect(array[3] as? String == "d")
        let sparse = try WriteValue.make(["0": "a", "5": "f"], at: .root).node
        #expect(sparse.foundationValue as? [String: Any] != nil)
        #expect(dense.exportFoundationValue as? [String: Any] != nil)
    }

    @Test func exportFormatKeepsPriorities() throws {
        let leaf = try WriteValue.make(5, priority: "high", at: .root).node
        let exported = try #require(leaf.exportFoundationValue as? [String: Any])
        #expect(exported[".value"] as? Int == 5)
        #expect(exported[".priority"] as? String == "high")
        #expect(leaf.foundationValue as? Int == 5)
    }

    @Test func writeRulesApplyAsOnTheServer() {
        #expect(throws: DatabaseValueError.self) { try WriteValue.make(["a.b": 1], at: .root) }
        #expect(throws: DatabaseValueError.self) { try WriteValue.make(1, priority: true, at: .root) }
        let deep = (0..<40).reduce(1 as Any) { value, _ in ["k": value] }
        #expect(throws: DatabaseValueError.self) { try WriteValue.make(deep, at: .root) }
    }
}
