import Dispatch
import Foundation
import Hearth
import Testing

/// FirebaseDatabase's public Swift API, member by member, as an app written against it uses it: every type,
/// initializer, property and method of its Objective-C headers as Swift imports them (`NS_SWIFT_NAME`,
/// nullability, completion blocks with their `async` forms) and of its Swift extensions (Codable), with the types
/// spelled out, so that any drift in a signature of `Hearth` breaks the build of this target. Only the members that
/// need a `FirebaseApp` are left out (see docs/client.md, "FirebaseDatabase's API").
///
/// This file imports `Hearth` without `@testable`: it sees what an app sees. The `…Signatures` functions are never
/// run (nothing here has a server); the compiler checks them. The `@Test`s check the behaviour of the members that
/// need none: bare initializers, `NSObject` identity, coders.
@Suite struct FirebaseDatabaseAPITests {
    // MARK: - Compile-time checks

    /// `Database`: instances, references, connection, settings, class methods.
    func databaseSignatures() {
        let getDefault: () -> Database = Database.database
        let getForURL: (String) -> Database = Database.database(url:)
        var database: Database = getDefault()
        database = getForURL("http://127.0.0.1:9000?ns=demo")
        let reference: () -> DatabaseReference = database.reference
        let referenceWithPath: (String) -> DatabaseReference = database.reference(withPath:)
        let referenceFromURL: (String) -> DatabaseReference = database.reference(fromURL:)
        let purge: () -> Void = database.purgeOutstandingWrites
        let goOffline: () -> Void = database.goOffline
        let goOnline: () -> Void = database.goOnline
        let useEmulator: (String, Int) -> Void = database.useEmulator(withHost:port:)
        database.isPersistenceEnabled = true
        let isPersistenceEnabled: Bool = database.isPersistenceEnabled
        database.persistenceCacheSizeBytes = 10 * 1024 * 1024
        let persistenceCacheSizeBytes: UInt = database.persistenceCacheSizeBytes
        database.callbackQueue = DispatchQueue.main
        let callbackQueue: DispatchQueue = database.callbackQueue
        let setLoggingEnabled: (Bool) -> Void = Database.setLoggingEnabled
        let sdkVersion: () -> String = Database.sdkVersion
        // Imported Objective-C methods' results are discardable.
        Database.database()
        Database.database(url: "http://127.0.0.1:9000")
        database.reference()
        database.reference(withPath: "a")
        database.reference(fromURL: "http://127.0.0.1:9000/a")
        Database.sdkVersion()
        _ = (reference, referenceWithPath, referenceFromURL, purge, goOffline, goOnline, useEmulator)
        _ = (isPersistenceEnabled, persistenceCacheSizeBytes, callbackQueue, setLoggingEnabled, sdkVersion)
    }

    /// `DatabaseQuery`: observing, reading once, removing observers, ordering and bounding, `ref`, `init()`.
    func querySignatures(_ query: DatabaseQuery) {
        let observe: (DataEventType, @escaping (DataSnapshot) -> Void) -> DatabaseHandle = query.observe(_:with:)
        let observePrevious: (DataEventType, @escaping (DataSnapshot, String?) -> Void) -> DatabaseHandle =
            query.observe(_:andPreviousSiblingKeyWith:)
        let observeCancel: (DataEventType, @escaping (DataSnapshot) -> Void, ((any Error) -> Void)?) -> DatabaseHandle =
            query.observe(_:with:withCancel:)
        let observePreviousCancel:
            (DataEventType, @escaping (DataSnapshot, String?) -> Void, ((any Error) -> Void)?) -> DatabaseHandle =
                query.observe(_:andPreviousSiblingKeyWith:withCancel:)
        let getData: (@escaping ((any Error)?, DataSnapshot?) -> Void) -> Void = query.getData(completion:)
        let getDataAsync: () async throws -> DataSnapshot = query.getData
        let single: (DataEventType, @escaping (DataSnapshot) -> Void) -> Void = query.observeSingleEvent(of:with:)
        let singlePrevious: (DataEventType, @escaping (DataSnapshot, String?) -> Void) -> Void =
            query.observeSingleEvent(of:andPreviousSiblingKeyWith:)
        let singleCancel: (DataEventType, @escaping (DataSnapshot) -> Void, ((any Error) -> Void)?) -> Void =
            query.observeSingleEvent(of:with:withCancel:)
        let singlePreviousCancel:
            (DataEventType, @escaping (DataSnapshot, String?) -> Void, ((any Error) -> Void)?) -> Void =
                query.observeSingleEvent(of:andPreviousSiblingKeyWith:withCancel:)
        let singleAsync: (DataEventType) async -> (DataSnapshot, String?) =
            query.observeSingleEventAndPreviousSiblingKey(of:)
        let removeObserver: (DatabaseHandle) -> Void = query.removeObserver(withHandle:)
        let removeAll: () -> Void = query.removeAllObservers
        let keepSynced: (Bool) -> Void = query.keepSynced
        let limitedToFirst: (UInt) -> DatabaseQuery = query.queryLimited(toFirst:)
        let limitedToLast: (UInt) -> DatabaseQuery = query.queryLimited(toLast:)
        let orderedByChild: (String) -> DatabaseQuery = query.queryOrdered(byChild:)
        let orderedByKey: () -> DatabaseQuery = query.queryOrderedByKey
        let orderedByValue: () -> DatabaseQuery = query.queryOrderedByValue
        let orderedByPriority: () -> DatabaseQuery = query.queryOrderedByPriority
        let startingAt: (Any?) -> DatabaseQuery = query.queryStarting(atValue:)
        let startingAtKey: (Any?, String?) -> DatabaseQuery = query.queryStarting(atValue:childKey:)
        let startingAfter: (Any?) -> DatabaseQuery = query.queryStarting(afterValue:)
        let startingAfterKey: (Any?, String?) -> DatabaseQuery = query.queryStarting(afterValue:childKey:)
        let endingAt: (Any?) -> DatabaseQuery = query.queryEnding(atValue:)
        let endingAtKey: (Any?, String?) -> DatabaseQuery = query.queryEnding(atValue:childKey:)
        let endingBefore: (Any?) -> DatabaseQuery = query.queryEnding(beforeValue:)
        let endingBeforeKey: (Any?, String?) -> DatabaseQuery = query.queryEnding(beforeValue:childKey:)
        let equalTo: (Any?) -> DatabaseQuery = query.queryEqual(toValue:)
        let equalToKey: (Any?, String?) -> DatabaseQuery = query.queryEqual(toValue:childKey:)
        let ref: DatabaseReference = query.ref
        let bare: DatabaseQuery = DatabaseQuery()
        // As an app writes them: trailing closures, an app's own (non-Sendable) state captured.
        var seen: [String] = []
        let handle: DatabaseHandle = query.observe(.value) { snapshot in seen.append(snapshot.key) }
        query.observe(.childAdded) { snapshot, previous in seen.append(previous ?? snapshot.key) }
        query.observe(.childChanged) { snapshot in
            seen.append(snapshot.key)
        } withCancel: { error in
            seen.append(error.localizedDescription)
        }
        query.observe(.childMoved) { snapshot, previous in
            seen.append(previous ?? snapshot.key)
        } withCancel: { error in
            seen.append(error.localizedDescription)
        }
        query.observeSingleEvent(of: .value) { snapshot in seen.append(snapshot.key) }
        query.observeSingleEvent(of: .value) { snapshot in
            seen.append(snapshot.key)
        } withCancel: { _ in
        }
        query.getData { error, snapshot in seen.append(error?.localizedDescription ?? snapshot?.key ?? "") }
        query.queryOrderedByKey().queryStarting(atValue: "a").queryLimited(toFirst: 2)
        query.removeObserver(withHandle: handle)
        _ = (observe, observePrevious, observeCancel, observePreviousCancel, getData, getDataAsync, single)
        _ = (singlePrevious, singleCancel, singlePreviousCancel, singleAsync, removeObserver, removeAll, keepSynced)
        _ = (limitedToFirst, limitedToLast, orderedByChild, orderedByKey, orderedByValue, orderedByPriority)
        _ = (startingAt, startingAtKey, startingAfter, startingAfterKey, endingAt, endingAtKey, endingBefore)
        _ = (endingBeforeKey, equalTo, equalToKey, ref, bare, seen)
    }

    /// `async` forms of reads, whose results may be discarded as imported ones may.
    func queryAsyncSignatures(_ query: DatabaseQuery) async throws {
        let snapshot: DataSnapshot = try await query.getData()
        let (first, previous): (DataSnapshot, String?) = await query.observeSingleEventAndPreviousSiblingKey(
            of: .childAdded)
        try await query.getData()
        await query.observeSingleEventAndPreviousSiblingKey(of: .value)
        _ = (snapshot, first, previous)
    }

    /// `DatabaseReference`: children, writes with their completion blocks and `async` forms, properties.
    func referenceSignatures(_ reference: DatabaseReference) {
        typealias Completion = ((any Error)?, DatabaseReference) -> Void
        let child: (String) -> DatabaseReference = reference.child
        let childByAutoId: () -> DatabaseReference = reference.childByAutoId
        let setValue: (Any?) -> Void = reference.setValue(_:)
        let setValueBlock: (Any?, @escaping Completion) -> Void = reference.setValue(_:withCompletionBlock:)
        let setValueAndPriority: (Any?, Any?) -> Void = reference.setValue(_:andPriority:)
        let setValueAndPriorityBlock: (Any?, Any?, @escaping Completion) -> Void =
            reference.setValue(_:andPriority:withCompletionBlock:)
        let removeValue: () -> Void = reference.removeValue
        let removeValueBlock: (@escaping Completion) -> Void = reference.removeValue(completionBlock:)
        let setPriority: (Any?) -> Void = reference.setPriority(_:)
        let setPriorityBlock: (Any?, @escaping Completion) -> Void = reference.setPriority(_:withCompletionBlock:)
        let update: ([AnyHashable: Any]) -> Void = reference.updateChildValues(_:)
        let updateBlock: ([AnyHashable: Any], @escaping Completion) -> Void =
            reference.updateChildValues(_:withCompletionBlock:)
        let onDisconnectSet: (Any?) -> Void = reference.onDisconnectSetValue(_:)
        let onDisconnectSetBlock: (Any?, @escaping Completion) -> Void =
            reference.onDisconnectSetValue(_:withCompletionBlock:)
        let onDisconnectSetPriority: (Any?, Any) -> Void = reference.onDisconnectSetValue(_:andPriority:)
        let onDisconnectSetPriorityBlock: (Any?, Any?, @escaping Completion) -> Void =
            reference.onDisconnectSetValue(_:andPriority:withCompletionBlock:)
        let onDisconnectRemove: () -> Void = reference.onDisconnectRemoveValue
        let onDisconnectRemoveBlock: (@escaping Completion) -> Void =
            reference.onDisconnectRemoveValue(completionBlock:)
        let onDisconnectUpdate: ([AnyHashable: Any]) -> Void = reference.onDisconnectUpdateChildValues(_:)
        let onDisconnectUpdateBlock: ([AnyHashable: Any], @escaping Completion) -> Void =
            reference.onDisconnectUpdateChildValues(_:withCompletionBlock:)
        let cancelDisconnect: () -> Void = reference.cancelDisconnectOperations
        let cancelDisconnectBlock: (Completion?) -> Void = reference.cancelDisconnectOperations(completionBlock:)
        let transaction: (@escaping (MutableData) -> TransactionResult) -> Void = reference.runTransactionBlock(_:)
        let transactionBlock:
            (@escaping (MutableData) -> TransactionResult, @escaping ((any Error)?, Bool, DataSnapshot?) -> Void)
                -> Void = reference.runTransactionBlock(_:andCompletionBlock:)
        let transactionLocal:
            (@escaping (MutableData) -> TransactionResult, (((any Error)?, Bool, DataSnapshot?) -> Void)?, Bool)
                -> Void = reference.runTransactionBlock(_:andCompletionBlock:withLocalEvents:)
        let description: String = reference.description()
        let goOffline: () -> Void = DatabaseReference.goOffline
        let goOnline: () -> Void = DatabaseReference.goOnline
        let parent: DatabaseReference? = reference.parent
        let key: String? = reference.key
        let root: DatabaseReference = reference.root
        let url: String = reference.url
        let database: Database = reference.database
        let bare: DatabaseReference = DatabaseReference()
        // As an app writes them.
        reference.removeValue { error, ref in print(error as Any, ref) }
        reference.onDisconnectRemoveValue { error, ref in print(error as Any, ref) }
        reference.cancelDisconnectOperations { error, ref in print(error as Any, ref) }
        reference.cancelDisconnectOperations(completionBlock: nil)
        reference.runTransactionBlock(
            { data in TransactionResult.success(withValue: data) }, andCompletionBlock: nil, withLocalEvents: false)
        reference.runTransactionBlock { data in
            data.value = 1
            return TransactionResult.success(withValue: data)
        } andCompletionBlock: { error, committed, snapshot in
            print(error as Any, committed, snapshot as Any)
        }
        reference.child("a").childByAutoId()
        reference.description()
        reference.queryOrderedByValue().queryEqual(toValue: 1)
        _ = (child, childByAutoId, setValue, setValueBlock, setValueAndPriority, setValueAndPriorityBlock)
        _ = (removeValue, removeValueBlock, setPriority, setPriorityBlock, update, updateBlock, onDisconnectSet)
        _ = (onDisconnectSetBlock, onDisconnectSetPriority, onDisconnectSetPriorityBlock, onDisconnectRemove)
        _ = (onDisconnectRemoveBlock, onDisconnectUpdate, onDisconnectUpdateBlock, cancelDisconnect)
        _ = (cancelDisconnectBlock, transaction, transactionBlock, transactionLocal, description, goOffline)
        _ = (goOnline, parent, key, root, url, database, bare)
    }

    /// The `async` forms Swift makes of `DatabaseReference`'s completion-block methods, results discardable.
    func referenceAsyncSignatures(_ reference: DatabaseReference) async throws {
        let setValue: (Any?) async throws -> DatabaseReference = reference.setValue(_:)
        let setValueAndPriority: (Any?, Any?) async throws -> DatabaseReference = reference.setValue(_:andPriority:)
        let removeValue: () async throws -> DatabaseReference = reference.removeValue
        let setPriority: (Any?) async throws -> DatabaseReference = reference.setPriority(_:)
        let update: ([AnyHashable: Any]) async throws -> DatabaseReference = reference.updateChildValues(_:)
        let onDisconnectSet: (Any?) async throws -> DatabaseReference = reference.onDisconnectSetValue(_:)
        let onDisconnectSetPriority: (Any?, Any?) async throws -> DatabaseReference =
            reference.onDisconnectSetValue(_:andPriority:)
        let onDisconnectRemove: () async throws -> DatabaseReference = reference.onDisconnectRemoveValue
        let onDisconnectUpdate: ([AnyHashable: Any]) async throws -> DatabaseReference =
            reference.onDisconnectUpdateChildValues(_:)
        let cancelDisconnect: () async throws -> DatabaseReference = reference.cancelDisconnectOperations
        let transaction: (@escaping (MutableData) -> TransactionResult) async throws -> (Bool, DataSnapshot) =
            reference.runTransactionBlock(_:)
        try await reference.setValue(1)
        try await reference.setValue(1, andPriority: 2)
        try await reference.removeValue()
        try await reference.setPriority("p")
        try await reference.updateChildValues(["a": 1])
        try await reference.onDisconnectSetValue(1)
        try await reference.onDisconnectSetValue(1, andPriority: 2)
        try await reference.onDisconnectRemoveValue()
        try await reference.onDisconnectUpdateChildValues(["a": 1])
        try await reference.cancelDisconnectOperations()
        try await reference.runTransactionBlock { data in TransactionResult.success(withValue: data) }
        let (committed, snapshot): (Bool, DataSnapshot) = try await reference.runTransactionBlock { _ in
            TransactionResult.abort()
        }
        _ = (setValue, setValueAndPriority, removeValue, setPriority, update, onDisconnectSet)
        _ = (onDisconnectSetPriority, onDisconnectRemove, onDisconnectUpdate, cancelDisconnect, transaction)
        _ = (committed, snapshot)
    }

    /// `DataSnapshot`, `MutableData`, `TransactionResult`, `ServerValue`, `DataEventType`, `DatabaseHandle`.
    func valueSignatures(_ snapshot: DataSnapshot, _ data: MutableData) {
        let childSnapshot: (String) -> DataSnapshot = snapshot.childSnapshot(forPath:)
        let hasChild: (String) -> Bool = snapshot.hasChild
        let hasChildren: () -> Bool = snapshot.hasChildren
        let exists: () -> Bool = snapshot.exists
        let export: () -> Any? = snapshot.valueInExportFormat
        let value: Any? = snapshot.value
        let childrenCount: UInt = snapshot.childrenCount
        let ref: DatabaseReference = snapshot.ref
        let key: String = snapshot.key
        let children: NSEnumerator = snapshot.children
        let priority: Any? = snapshot.priority
        let bareSnapshot: DataSnapshot = DataSnapshot()
        var keys: [String] = []
        keys.append(snapshot.key)
        for case let child as DataSnapshot in snapshot.children { keys.append(child.key) }

        let dataHasChildren: () -> Bool = data.hasChildren
        let dataHasChild: (String) -> Bool = data.hasChild(atPath:)
        let childData: (String) -> MutableData = data.childData(byAppendingPath:)
        data.value = ["a": 1]
        data.priority = 1
        let dataValue: Any? = data.value
        let dataPriority: Any? = data.priority
        let dataChildrenCount: UInt = data.childrenCount
        let dataChildren: NSEnumerator = data.children
        let dataKey: String? = data.key
        let bareData: MutableData = MutableData()

        let success: (MutableData) -> TransactionResult = TransactionResult.success(withValue:)
        let abort: () -> TransactionResult = TransactionResult.abort
        let bareResult: TransactionResult = TransactionResult()
        let timestamp: () -> [AnyHashable: Any] = ServerValue.timestamp
        let increment: (NSNumber) -> [AnyHashable: Any] = ServerValue.increment

        let eventType: DataEventType? = DataEventType(rawValue: 0)
        let raw: Int = DataEventType.value.rawValue
        switch eventType {
        case .childAdded, .childRemoved, .childChanged, .childMoved, .value, .none: break
        }
        let handle: DatabaseHandle = UInt(0)

        snapshot.childSnapshot(forPath: "a")
        snapshot.exists()
        data.childData(byAppendingPath: "a")
        TransactionResult.abort()
        ServerValue.timestamp()
        _ = (childSnapshot, hasChild, hasChildren, exists, export, value, childrenCount, ref, key, children)
        _ = (priority, bareSnapshot, keys, dataHasChildren, dataHasChild, childData, dataValue, dataPriority)
        _ = (dataChildrenCount, dataChildren, dataKey, bareData, success, abort, bareResult, timestamp, increment)
        _ = (raw, handle)
    }

    /// The Swift extensions: Codable reads and writes, `Database.Encoder`/`Decoder` with their strategy types,
    /// `@ServerTimestamp`.
    func codableSignatures(_ reference: DatabaseReference, _ snapshot: DataSnapshot) throws {
        struct Post: Codable {
            var title: String
            @ServerTimestamp var createdAt: Date?
        }
        let encoder: Database.Encoder = Database.Encoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.dateEncodingStrategy = .formatted(DateFormatter())
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSince1970)
        }
        encoder.dataEncodingStrategy = .blob
        encoder.dataEncodingStrategy = .custom { _, _ in }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+", negativeInfinity: "-", nan: "nan")
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.keyEncodingStrategy = .custom { path in path[path.count - 1] }
        if let key = CodingUserInfoKey(rawValue: "context") { encoder.userInfo = [key: NSObject()] }
        let dateStrategy: Database.Encoder.DateEncodingStrategy = encoder.dateEncodingStrategy
        let dataStrategy: Database.Encoder.DataEncodingStrategy = encoder.dataEncodingStrategy
        let floatStrategy: Database.Encoder.NonConformingFloatEncodingStrategy =
            encoder.nonConformingFloatEncodingStrategy
        let keyStrategy: Database.Encoder.KeyEncodingStrategy = encoder.keyEncodingStrategy
        let userInfo: [CodingUserInfoKey: Any] = encoder.userInfo
        let resolver = encoder.passthroughTypeResolver
        let encode: (Post) throws -> Any = encoder.encode

        let decoder: Database.Decoder = Database.Decoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dateDecodingStrategy = .custom { decoder in try Date(timeIntervalSince1970: Double(from: decoder)) }
        decoder.dataDecodingStrategy = .blob
        decoder.dataDecodingStrategy = .custom { _ in Data() }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+", negativeInfinity: "-", nan: "nan")
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.keyDecodingStrategy = .custom { path in path[path.count - 1] }
        decoder.userInfo = [:]
        let decodeDate: Database.Decoder.DateDecodingStrategy = decoder.dateDecodingStrategy
        let decodeData: Database.Decoder.DataDecodingStrategy = decoder.dataDecodingStrategy
        let decodeFloat: Database.Decoder.NonConformingFloatDecodingStrategy =
            decoder.nonConformingFloatDecodingStrategy
        let decodeKey: Database.Decoder.KeyDecodingStrategy = decoder.keyDecodingStrategy
        decoder.passthroughTypeResolver = resolver
        let decode: (Post.Type, Any) throws -> Post = decoder.decode

        try reference.setValue(from: Post(title: "t", createdAt: nil))
        try reference.setValue(from: Post(title: "t", createdAt: nil), encoder: encoder)
        try reference.setValue(from: Post(title: "t", createdAt: nil), encoder: encoder) { (error: (any Error)?) in
            print(error as Any)
        }
        let post: Post = try snapshot.data(as: Post.self)
        let optional: Post? = try snapshot.data(as: Post?.self, decoder: decoder)
        let stamp: ServerTimestamp = ServerTimestamp(wrappedValue: nil)
        let date: Date? = stamp.wrappedValue
        _ = (dateStrategy, dataStrategy, floatStrategy, keyStrategy, userInfo, encode, decodeDate, decodeData)
        _ = (decodeFloat, decodeKey, decode, post, optional, date)
    }

    /// The classes are `NSObject`s: `==`, `hash`, `Hashable`, `description`, `isEqual(_:)`; snapshots and mutable
    /// data can be subclassed as test doubles.
    func objectSignatures(_ reference: DatabaseReference, _ snapshot: DataSnapshot, _ query: DatabaseQuery) {
        final class SnapshotDouble: DataSnapshot, @unchecked Sendable {
            override var value: Any? { ["title": "double"] }
            override var key: String { "double" }
        }
        let same: Bool = reference == reference.root && snapshot == snapshot && query != reference
        let hash: Int = reference.hash &+ snapshot.hash &+ query.hash
        let set: Set<DataSnapshot> = [snapshot, SnapshotDouble()]
        let references: Set<DatabaseReference> = [reference]
        let description: String = reference.description + snapshot.description + query.description
        let object: NSObject = reference
        let equal: Bool = object.isEqual(snapshot)
        _ = (same, hash, set, references, description, equal)
    }

    // MARK: - Behaviour that needs no server

    /// The bare initializers an app's test doubles start from: an empty snapshot and empty mutable data at the
    /// root (key `""` and nil), references and queries to the root of the default database, an aborting result.
    @Test func bareInstancesAreEmptyAndAtTheRoot() {
        let snapshot = DataSnapshot()
        #expect(!snapshot.exists() && snapshot.key == "" && snapshot.value is NSNull && snapshot.childrenCount == 0)
        #expect(snapshot.description == "Snap () null")
        let data = MutableData()
        #expect(data.key == nil && data.value is NSNull)
        data.value = ["a": 1]
        #expect(data.childData(byAppendingPath: "a").value as? Int == 1 && data.hasChild(atPath: "a"))
        #expect(data.description == #"MutableData (top-most transaction) {"a":1}"#)
        let reference = DatabaseReference()
        #expect(reference.key == nil && reference.parent == nil)
        #expect(reference.database === Database.database())
        #expect(reference.description == reference.url && reference.description() == reference.url)
        #expect(DatabaseQuery().ref.url == reference.url)
        #expect(DatabaseQuery().queryLimited(toFirst: 2).description.hasPrefix("(/ "))
    }

    /// As in FirebaseDatabase, `==` and `hash` are `NSObject`'s identity: two references to one location differ.
    @Test func equalityIsIdentity() {
        let reference = Database.database().reference(withPath: "a")
        #expect(reference == reference && reference.hash == reference.hash)
        #expect(reference != Database.database().reference(withPath: "a"))
        #expect(Set([reference, reference]).count == 1)
    }

    /// A subclass of `DataSnapshot` stands in for one: `data(as:)` decodes the double's `value`.
    @Test func snapshotDoublesDecode() throws {
        final class SnapshotDouble: DataSnapshot, @unchecked Sendable {
            override var value: Any? { ["title": "double", "stars": 2] }
        }
        struct Post: Decodable, Equatable {
            var title: String
            var stars: Int
        }
        #expect(try SnapshotDouble().data(as: Post.self) == Post(title: "double", stars: 2))
    }

    /// The coders' Firebase strategies: `.blob` data cannot be stored and is never read, custom closures and
    /// `userInfo` values (not `Sendable`) reach the value's own coding.
    @Test func coderStrategiesBehaveAsDocumented() throws {
        struct Blob: Codable { var bytes: Data }
        /// Prefixes its name with the `NSMutableString` (not `Sendable`) found in `userInfo`.
        struct Tagged: Codable {
            var name: String
            init(name: String) { self.name = name }
            init(from decoder: any Swift.Decoder) throws {
                let prefix = (decoder.userInfo.values.first as? NSMutableString).map { String($0) } ?? ""
                self.name = prefix + (try decoder.singleValueContainer().decode(String.self))
            }
            func encode(to encoder: any Swift.Encoder) throws {
                var container = encoder.singleValueContainer()
                let prefix = (encoder.userInfo.values.first as? NSMutableString).map { String($0) } ?? ""
                try container.encode(prefix + self.name)
            }
        }
        let key = try #require(CodingUserInfoKey(rawValue: "prefix"))
        let encoder = Database.Encoder()
        encoder.dataEncodingStrategy = .blob
        #expect(throws: EncodingError.self) { try encoder.encode(Blob(bytes: Data([1]))) }
        let decoder = Database.Decoder()
        decoder.dataDecodingStrategy = .blob
        #expect(throws: DecodingError.self) { try decoder.decode(Blob.self, from: ["bytes": "AQ=="]) }

        encoder.userInfo = [key: NSMutableString(string: "enc-")]
        #expect(try encoder.encode(Tagged(name: "a")) as? String == "enc-a")
        decoder.userInfo = [key: NSMutableString(string: "dec-")]
        #expect(try decoder.decode(Tagged.self, from: "a").name == "dec-a")

        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day \(Int(date.timeIntervalSince1970 / 86_400))")
        }
        #expect(try encoder.encode([Date(timeIntervalSince1970: 86_400 * 3)]) as? [String] == ["day 3"])
        decoder.keyDecodingStrategy = .custom { path in path[path.count - 1] }
        #expect(try decoder.decode([String: Int].self, from: ["a": 1]) == ["a": 1])
    }
}
