import HearthCluster
import Testing

@Suite struct ClusterConfigurationTests {
    private static let valid = """
        {
          "name": "test",
          "nodes": [
            { "id": "n1", "host": "127.0.0.1", "httpPort": 9001, "peerPort": 9101 },
            { "id": "n2", "host": "127.0.0.1", "httpPort": 9002, "peerPort": 9102 },
            { "id": "n3", "host": "::1", "httpPort": 9003, "peerPort": 9103 }
          ],
          "shards": 32,
          "replicationFactor": 2,
          "shardDepth": 3,
          "dataDirectory": "/var/hearth"
        }
        """

    /// Parses `text` and returns the refusal, failing the test if it was accepted.
    private func refusal(_ text: String) -> ClusterConfigurationError? {
        do {
            let configuration = try ClusterConfiguration(json: text)
            Issue.record("accepted: \(configuration)")
            return nil
        } catch {
            return error
        }
    }

    /// `valid` with the text `original` replaced by `replacement`.
    private func refusal(replacing original: String, with replacement: String) -> ClusterConfigurationError? {
        #expect(Self.valid.contains(original))
        return self.refusal(Self.valid.replacingOccurrences(original, replacement))
    }

    /// A full document is read field by field, and each node gets its own data folder under the root.
    @Test func readsEveryField() throws {
        let configuration = try ClusterConfiguration(json: Self.valid)
        #expect(configuration.name == "test")
        #expect(configuration.nodeIDs == ["n1", "n2", "n3"])
        #expect(configuration.node("n3") == .init(id: "n3", host: "::1", httpPort: 9003, peerPort: 9103))
        #expect(configuration.shards == 32)
        #expect(configuration.replicationFactor == 2)
        #expect(configuration.shardDepth == 3)
        #expect(configuration.dataDirectory(for: "n2") == "/var/hearth/n2")
    }

    /// Optional fields take their documented defaults.
    @Test func appliesDefaults() throws {
        let configuration = try ClusterConfiguration(
            json:
                #"{"nodes": [{"id": "a", "host": "127.0.0.1", "httpPort": 1, "peerPort": 2}], "replicationFactor": 1}"#
        )
        #expect(configuration.name == "hearth")
        #expect(configuration.shards == 16)
        #expect(configuration.shardDepth == 2)
        #expect(configuration.dataDirectory(for: "a") == nil)
    }

    /// The shipped local cluster files are valid and match what the README promises.
    @Test func shippedFilesAreValid() throws {
        let root = #filePath.split(separator: "/Tests/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/Tests/")
        for count in [3, 5] {
            let configuration = try ClusterConfiguration(contentsOfFile: "\(root)/cluster-config/local-\(count).json")
            #expect(configuration.nodes.count == count)
            #expect(configuration.nodes.map(\.httpPort) == Array(9001...(9000 + count)))
            #expect(configuration.nodes.map(\.peerPort) == Array(9101...(9100 + count)))
            #expect(configuration.replicationFactor == 3)
            #expect(configuration.secretFile == ".cluster/local-\(count)/cluster.secret")
            #expect(configuration.databaseSecretFile == ".cluster/local-\(count)/admin.secret")
        }
    }

    /// The package's three-machine file is valid and founds its cluster with the 16 shards in one Raft group, as
    /// packaging/INSTALL.md says.
    @Test func packagedFileIsValid() throws {
        let root = #filePath.split(separator: "/Tests/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/Tests/")
        let configuration = try ClusterConfiguration(contentsOfFile: "\(root)/packaging/cluster.json")
        #expect(configuration.nodes.map(\.id) == ["n1", "n2", "n3"])
        #expect(configuration.shards == 16)
        #expect(configuration.groups == 1)
        #expect(configuration.replicationFactor == 3)
    }

    @Test func refusesUnknownKeysAtEveryLevel() {
        let nested = self.refusal(replacing: #""httpPort": 9002"#, with: #""htppPort": 9002"#)
        #expect(nested?.code == .unknownKey)
        #expect(nested?.field == "nodes[1].htppPort")
        #expect(nested?.message.contains("nodes[1].htppPort") == true)
        let top = self.refusal(replacing: #""shards": 32"#, with: #""shard": 32"#)
        #expect(top?.code == .unknownKey)
        #expect(top?.field == "shard")
    }

    @Test func refusesMissingAndIllTypedFields() {
        let missing = self.refusal(replacing: #", "peerPort": 9101"#, with: "")
        #expect(missing?.code == .missingField)
        #expect(missing?.field == "nodes[0].peerPort")
        #expect(self.refusal(#"{"shards": 4}"#)?.field == "nodes")
        let text = self.refusal(replacing: #""httpPort": 9003"#, with: #""httpPort": "9003""#)
        #expect(text?.code == .wrongType)
        #expect(text?.field == "nodes[2].httpPort")
        #expect(self.refusal(replacing: #""shards": 32"#, with: #""shards": 2.5"#)?.field == "shards")
        #expect(self.refusal(replacing: #""name": "test""#, with: #""name": 7"#)?.code == .wrongType)
        #expect(self.refusal("[1, 2]")?.code == .wrongType)
        #expect(self.refusal("{")?.code == .unreadable)
    }

    @Test func refusesDuplicateIDs() {
        let duplicate = self.refusal(replacing: #""id": "n3""#, with: #""id": "n1""#)
        #expect(duplicate?.code == .duplicateID)
        #expect(duplicate?.field == "nodes[2].id")
    }

    @Test func refusesSharedListenersAcrossHTTPAndPeerPorts() {
        let http = self.refusal(replacing: #""httpPort": 9002"#, with: #""httpPort": 9001"#)
        #expect(http?.code == .duplicateAddress)
        #expect(http?.field == "nodes[1].httpPort")
        let crossed = self.refusal(replacing: #""peerPort": 9102"#, with: #""peerPort": 9001"#)
        #expect(crossed?.code == .duplicateAddress)
        #expect(crossed?.field == "nodes[1].peerPort")
        #expect(crossed?.message.contains("nodes[0].httpPort") == true)
        let own = self.refusal(replacing: #""peerPort": 9101"#, with: #""peerPort": 9001"#)
        #expect(own?.field == "nodes[0].peerPort")
    }

    @Test func refusesPortsOutOfRange() {
        #expect(self.refusal(replacing: #""httpPort": 9001"#, with: #""httpPort": 0"#)?.field == "nodes[0].httpPort")
        let high = self.refusal(replacing: #""peerPort": 9103"#, with: #""peerPort": 65536"#)
        #expect(high?.code == .outOfRange)
        #expect(high?.field == "nodes[2].peerPort")
    }

    @Test func refusesAnEmptyNodeList() {
        let empty = self.refusal(#"{"nodes": []}"#)
        #expect(empty?.code == .outOfRange)
        #expect(empty?.field == "nodes")
    }

    @Test func refusesImpossibleReplicationFactorsAndShardCounts() {
        let tooMany = self.refusal(replacing: #""replicationFactor": 2"#, with: #""replicationFactor": 4"#)
        #expect(tooMany?.field == "replicationFactor")
        #expect(tooMany?.message.contains("3 node(s)") == true)
        let zero = self.refusal(replacing: #""replicationFactor": 2"#, with: #""replicationFactor": 0"#)
        #expect(zero?.field == "replicationFactor")
        #expect(self.refusal(replacing: #""shards": 32"#, with: #""shards": 0"#)?.field == "shards")
        #expect(self.refusal(replacing: #""shardDepth": 3"#, with: #""shardDepth": 0"#)?.field == "shardDepth")
        let defaultTooBig = self.refusal(
            #"{"nodes": [{"id": "a", "host": "127.0.0.1", "httpPort": 1, "peerPort": 2}]}"#)
        #expect(defaultTooBig?.field == "replicationFactor")
    }

    @Test func refusesNamesThatAreNotShortAndSimple() {
        for bad in ["", "n 1", "n/1", "-n1", "nœud", String(repeating: "n", count: 33)] {
            let refused = self.refusal(replacing: #""id": "n2""#, with: #""id": "\#(bad)""#)
            #expect(refused?.code == .invalidName, "\(bad)")
            #expect(refused?.field == "nodes[1].id")
        }
        #expect(self.refusal(replacing: #""name": "test""#, with: #""name": "a.b""#)?.field == "name")
        let host = self.refusal(replacing: #""host": "::1""#, with: #""host": "localhost""#)
        #expect(host?.code == .invalidName)
        #expect(host?.field == "nodes[2].host")
        #expect(self.refusal(replacing: #""host": "::1""#, with: #""host": "256.1.1.1""#)?.field == "nodes[2].host")
    }

    /// Configurations built in code obey the same rules.
    @Test func initialiserChecksToo() {
        let node = ClusterConfiguration.Node(id: "n1", host: "127.0.0.1", httpPort: 1, peerPort: 1)
        #expect(throws: ClusterConfigurationError.self) {
            try ClusterConfiguration(nodes: [node], replicationFactor: 1)
        }
    }
}

extension String {
    /// This text with every `original` replaced by `replacement` (no Foundation needed).
    fileprivate func replacingOccurrences(_ original: String, _ replacement: String) -> String {
        self.split(separator: original, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
