import HearthCluster
import HearthStorage
import HearthTestKit
import Testing

@testable import HearthNode

/// `joined.json` is written and read through the file system the node runs on.
@Suite struct JoinedMemberFileTests {
    private static func member() throws -> JoinedMember {
        let nodes = (1...3).map {
            ClusterConfiguration.Node(id: NodeID("n\($0)"), host: "127.0.0.1", httpPort: 9000 + $0, peerPort: 9100 + $0)
        }
        return JoinedMember(
            node: ClusterConfiguration.Node(id: NodeID("n4"), host: "127.0.0.1", httpPort: 9004, peerPort: 9104),
            founding: try ClusterConfiguration(name: "test", nodes: nodes, shards: 4, replicationFactor: 3),
            members: nodes, secretFiles: JoinedMember.SecretFiles(cluster: "/etc/hearth/cluster.secret"))
    }

    /// A saved record loads back equal, and survives a crash of the machine that saved it.
    @Test func aSavedRecordLoadsBackAfterACrash() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/data/n4")
        #expect(try JoinedMember.load(directory: "/data/n4", fileSystem: disk) == nil)
        let member = try Self.member()
        try member.save(directory: "/data/n4", fileSystem: disk)
        var random = SeededRandom(seed: 3)
        let restarted = disk.crash(using: &random)
        #expect(try JoinedMember.load(directory: "/data/n4", fileSystem: restarted) == member)
    }

    /// A damaged record is refused with an error naming the file.
    @Test func aDamagedRecordIsRefusedNamingTheFile() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/data/n4")
        try disk.replaceFile("/data/n4/joined.json", with: Array("{\"node\":".utf8))
        let error = #expect(throws: ClusterNodeError.self) {
            try JoinedMember.load(directory: "/data/n4", fileSystem: disk)
        }
        #expect(error?.description.contains("/data/n4/joined.json cannot be read") == true)
    }
}
