import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthNode
@testable import HearthServer

/// The backup file: it gives back exactly the trees and the cut it was written with, says what it holds, and any
/// file cut short or changed anywhere is refused with a message saying so.
@Suite struct BackupFileTests {
    private static let header = BackupHeader(
        release: "9.8.7", writtenMilliseconds: 1_764_300_000_123, shardDepth: 2, cut: [3, 0, 17, 5],
        namespaces: ["default", "other"])

    private static func roots() throws -> [String: Node] {
        [
            "default": try Fixture.node(
                #"{"posts":{"p1":{"starCount":2,"stars":{"u1":true,"u2":true}},"p2":{"title":"x"}},"top":7}"#),
            "other": try Fixture.node(#"{"a":{"b":{"c":"deep"}}}"#),
        ]
    }

    private static func encoded() throws -> [UInt8] {
        var bytes: [UInt8] = []
        try BackupEncoder.encode(header: Self.header, roots: try Self.roots(), into: &bytes)
        return bytes
    }

    /// Checks `bytes` fed in pieces of `piece` bytes.
    private static func check(_ bytes: [UInt8], piece: Int = 4096) throws(BackupFileError) -> BackupChecker {
        var checker = BackupChecker()
        var offset = 0
        while offset < bytes.count {
            try checker.feed(bytes[offset..<min(bytes.count, offset + piece)])
            offset += piece
        }
        _ = try checker.finish()
        return checker
    }

    /// The message a file is refused with, or nil when it is accepted.
    private static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try Self.check(bytes)
            return nil
        } catch {
            return error.message
        }
    }

    /// The header, the cut and the trees come back as written, whatever pieces the bytes arrive in.
    @Test func aBackupRoundTrips() async throws {
        let bytes = try Self.encoded()
        for piece in [1, 7, 104, 105, 4096] {
            let checker = try Self.check(bytes, piece: piece)
            #expect(checker.header == Self.header, "pieces of \(piece)")
        }
        let checker = try Self.check(bytes)
        let trees = bytes[Int(checker.treesOffset)..<(bytes.count - BackupFormat.trailerLength)]
        let decoded = try await SnapshotContent.decode(
            Array((SnapshotContent.header + "\n").utf8) + trees, parallelism: 2)
        #expect(decoded.roots == (try Self.roots()))
        let text = String(decoding: bytes.prefix(Int(checker.treesOffset)), as: UTF8.self)
        #expect(text.hasPrefix("hearth-backup 1\nrelease\t9.8.7\nwritten\t1764300000123\nshards\t4\t2\nI\t0\t3\n"))
        #expect(text.hasSuffix("N\tdefault\nN\tother\n"))
    }

    /// Every prefix of a backup, from the empty file to one byte short, is refused.
    @Test func aFileCutShortAnywhereIsRefused() throws {
        let bytes = try Self.encoded()
        for length in 0..<bytes.count {
            let message = Self.refusal(Array(bytes.prefix(length)))
            #expect(message != nil, "cut at \(length) of \(bytes.count)")
        }
        let inTrees = Self.refusal(Array(bytes.dropLast(BackupFormat.trailerLength + 3))) ?? ""
        #expect(inTrees.contains("cut short"), "\(inTrees)")
        let empty = Self.refusal([]) ?? ""
        #expect(empty.contains("before its header"), "\(empty)")
    }

    /// A change to any one byte is refused: in the header, the trees or the trailer.
    @Test func aFlippedByteAnywhereIsRefused() throws {
        let bytes = try Self.encoded()
        for offset in bytes.indices {
            var damaged = bytes
            damaged[offset] ^= 0x20
            #expect(Self.refusal(damaged) != nil, "byte \(offset) of \(bytes.count) flipped")
        }
        var inTrees = bytes
        inTrees[bytes.count - BackupFormat.trailerLength - 10] ^= 1
        let message = Self.refusal(inTrees) ?? ""
        #expect(message.contains("SHA-256") && message.contains("damaged"), "\(message)")
    }

    /// A file that is no backup, or a backup of a format this release does not read, is refused saying which.
    @Test func aForeignFileOrFormatIsRefusedByName() throws {
        let zip = Self.refusal(Array("PK\u{3}\u{4}some zip file".utf8)) ?? ""
        #expect(zip.contains("not a Hearth backup"), "\(zip)")
        var newer = try Self.encoded()
        newer[Array("hearth-backup ".utf8).count] = UInt8(ascii: "2")
        let format = Self.refusal(newer) ?? ""
        #expect(format.contains("format \"2\"") && format.contains("reads format 1"), "\(format)")
    }

    /// A restore makes a data directory a node opens with the backup's data, and refuses a directory holding
    /// anything or a damaged file without writing.
    @Test func aRestoredDirectoryOpensWithTheData() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.child("db.backup")
        let bytes = try Self.encoded()
        try Data(bytes).write(to: URL(fileURLWithPath: file))

        var damaged = bytes
        damaged[damaged.count / 2] ^= 1
        try Data(damaged).write(to: URL(fileURLWithPath: directory.child("damaged.backup")))
        #expect(throws: BackupFileError.self) {
            try BackupRestore.restoreNode(from: directory.child("damaged.backup"), into: directory.child("bad"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.child("bad")))
        #expect(throws: RestoreTargetError.self) {
            try BackupRestore.restoreNode(from: file, into: directory.path)
        }

        let data = directory.child("node")
        #expect(try BackupRestore.restoreNode(from: file, into: data) == Self.header)
        var configuration = NodeConfiguration()
        configuration.dataDirectory = data
        configuration.fsync = .off
        let database = try await Database.open(configuration: configuration, log: Log(level: .error))
        #expect(database.view.root("default") == (try Self.roots())["default"])
        #expect(database.view.root("other") == (try Self.roots())["other"])
        _ = try await database.write(namespace: "default", mutations: [try Fixture.set("posts/p3", #"{"n":1}"#)])
        await database.close()
        let reopened = try await Database.open(configuration: configuration, log: Log(level: .error))
        #expect(reopened.view.root("default").node(at: Fixture.path("posts/p3/n")) == Node(.int(1)))
        #expect(reopened.view.root("other") == (try Self.roots())["other"])
        await reopened.close()
    }

    /// A restored node whose only snapshot is damaged refuses to start, naming the restore, instead of falling back
    /// to its (empty) log, which holds none of the restored data.
    @Test func aRestoredNodeWithADamagedSnapshotRefusesToStartEmpty() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.child("db.backup")
        try Data(try Self.encoded()).write(to: URL(fileURLWithPath: file))
        let data = directory.child("node")
        try BackupRestore.restoreNode(from: file, into: data)
        let snapshot = try #require(try SnapshotStore(directory: data + "/snapshots").all().first)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: snapshot.path)))
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: snapshot.path))
        var configuration = NodeConfiguration()
        configuration.dataDirectory = data
        configuration.fsync = .off
        do {
            let database = try await Database.open(configuration: configuration, log: Log(level: .critical))
            await database.close()
            Issue.record("a restored node started without its damaged snapshot")
        } catch let error as StorageError {
            #expect(error.message.contains("hearth restore"), "\(error)")
        }
    }
}
