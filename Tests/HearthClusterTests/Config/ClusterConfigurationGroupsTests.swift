import HearthCluster
import HearthCore
import Testing

/// The `groups` field: optional (absent keeps one Raft group per shard), from 1 to `shards`, refused by name
/// otherwise, and carried by the document a joined member keeps and by the join reply.
@Suite struct ClusterConfigurationGroupsTests {
    private static func document(_ extra: String) -> String {
        """
        {"nodes": [{"id": "n1", "host": "127.0.0.1", "httpPort": 9001, "peerPort": 9101}], "replicationFactor": 1,
         "shards": 16\(extra)}
        """
    }

    /// Without the field every shard keeps its own group: the layout of every cluster founded before it existed.
    @Test func absentMeansOneGroupPerShard() throws {
        let configuration = try ClusterConfiguration(json: Self.document(""))
        #expect(configuration.groups == nil)
        #expect(configuration.groupCount == 16)
    }

    /// A count from 1 to `shards` is read as given.
    @Test(arguments: [1, 3, 16]) func readsACountUpToTheShards(groups: Int) throws {
        let configuration = try ClusterConfiguration(json: Self.document(#", "groups": \#(groups)"#))
        #expect(configuration.groups == groups)
        #expect(configuration.groupCount == groups)
        #expect(configuration.shards == 16)
    }

    /// Zero, negative, more groups than shards and a value that is not an integer are refused, naming the field.
    @Test(arguments: ["0", "-1", "17", "2.5", "\"4\""]) func refusesOtherValues(value: String) {
        do {
            let configuration = try ClusterConfiguration(json: Self.document(#", "groups": \#(value)"#))
            Issue.record("accepted: \(configuration)")
        } catch {
            #expect(error.field == "groups")
            #expect(error.message.contains("groups"))
        }
    }

    /// More shards than `maximumShards` (which the join reply carries exactly as 32 bits) are refused, naming the
    /// field and the range, with groups or without: a joining member would otherwise read a truncated count and
    /// route paths differently from the members.
    @Test(arguments: ["", #", "groups": 4"#]) func refusesMoreShardsThanTheMaximum(groups: String) {
        let document = """
            {"nodes": [{"id": "n1", "host": "127.0.0.1", "httpPort": 9001, "peerPort": 9101}], "replicationFactor": 1,
             "shards": 5000000000\(groups)}
            """
        do {
            let configuration = try ClusterConfiguration(json: document)
            Issue.record("accepted: \(configuration)")
        } catch {
            #expect(error.field == "shards")
            #expect(error.message.contains("from 1 to \(ClusterConfiguration.maximumShards)"))
        }
        #expect((try? ClusterConfiguration(json: Self.document(""))) != nil)
    }

    /// The range message says what to write instead.
    @Test func theRangeRefusalSaysWhatFits() {
        do {
            let configuration = try ClusterConfiguration(
                nodes: [.init(id: "n1", host: "::1", httpPort: 1, peerPort: 2)], groups: 17, replicationFactor: 1)
            Issue.record("accepted: \(configuration)")
        } catch {
            #expect(error.code == .outOfRange)
            #expect(error.message.contains("from 1 to 16"))
            #expect(error.message.contains("leave groups out"))
        }
    }

    /// The document a joined member keeps names the field only when the file set it, so an ungrouped cluster's
    /// document is what it was before the field existed.
    @Test func theWrittenDocumentKeepsTheField() throws {
        let grouped = try ClusterConfiguration(json: Self.document(#", "groups": 2"#))
        #expect(try ClusterConfiguration(json: grouped.json.jsonBytes()) == grouped)
        let plain = try ClusterConfiguration(json: Self.document(""))
        #expect(plain.json["groups"] == nil)
        #expect(try ClusterConfiguration(json: plain.json.jsonBytes()) == plain)
    }

    /// A grouped cluster's accepted join reply is format 2 and carries the count; an ungrouped one is format 1,
    /// byte for byte what the release before groups sent, so either side of an upgrade reads it.
    @Test func joinRepliesCarryTheCount() throws {
        let grouped = try ClusterConfiguration(json: Self.document(#", "groups": 4"#))
        let reply = JoinReply.accepted(founding: grouped, members: MemberList(founding: grouped))
        let bytes = reply.encoded()
        #expect(bytes.first == 2)
        #expect(try JoinReply(decoding: bytes) == reply)
        let plain = try ClusterConfiguration(json: Self.document(""))
        let plainBytes = JoinReply.accepted(founding: plain, members: MemberList(founding: plain)).encoded()
        #expect(plainBytes.first == 1)
        #expect(try JoinReply(decoding: plainBytes) == .accepted(founding: plain, members: MemberList(founding: plain)))
    }

    /// A release that reads only format 1 refuses a grouped cluster's reply with a message naming the format,
    /// rather than join as if every shard had its own group; format 2 carries nothing but an accepted reply.
    @Test func aReaderOfFormatOneRefusesAGroupedReply() throws {
        let grouped = try ClusterConfiguration(json: Self.document(#", "groups": 4"#))
        let bytes = JoinReply.accepted(founding: grouped, members: MemberList(founding: grouped)).encoded()
        var reader = BinaryReader(bytes: bytes)
        #expect(throws: BinaryDecodingError.self) { try reader.readFormatVersion(1, of: "join reply") }
        var refused = JoinReply.refused("no").encoded()
        refused[0] = 2
        #expect(throws: BinaryDecodingError.self) { try JoinReply(decoding: refused) }
    }

    /// The groups are what is placed: a member list founded from a grouped configuration targets exactly its groups
    /// (and the member list's own), each with `replicationFactor` voters, their preferred leaders spread over the
    /// members as shards' were.
    @Test func theGroupsArePlaced() throws {
        let nodes = (1...5).map {
            ClusterConfiguration.Node(id: NodeID("n\($0)"), host: "127.0.0.1", httpPort: 9000 + $0, peerPort: 9100 + $0)
        }
        let configuration = try ClusterConfiguration(nodes: nodes, shards: 16, groups: 5, replicationFactor: 3)
        let list = MemberList(founding: configuration)
        let targets = list.targets(shardCount: configuration.groupCount)
        #expect(Set(targets.keys) == Set((0..<5).map { RaftGroupID(UInt32($0)) } + [.members]))
        for group in 0..<5 {
            #expect(targets[RaftGroupID(UInt32(group))]?.voters.count == 3)
        }
        let leaders = list.placement(shardCount: configuration.groupCount).preferredLeaders
        #expect(Set(leaders).count == 5, "one preferred leader per member: \(leaders)")
    }
}
