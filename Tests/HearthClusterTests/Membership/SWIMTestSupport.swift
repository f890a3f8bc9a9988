import HearthCluster
import HearthTestKit

/// Builds instances whose table is given in the `SWIMTable` DSL and reads directives back, for handler tests.
enum SWIMTest {
    static var settings: SWIMSettings {
        var settings = SWIMSettings()
        settings.probeInterval = .seconds(1)
        settings.pingTimeout = .milliseconds(300)
        settings.pingRequestTimeout = .milliseconds(600)
        settings.suspicionTimeoutMin = .seconds(3)
        settings.suspicionTimeoutMax = .seconds(9)
        settings.suspicionConfirmations = 3
        settings.tombstoneTime = .seconds(60)
        return settings
    }

    /// Instance `me` (generation 1) that learned `table` from gossip at time zero.
    static func instance(
        _ me: NodeID = "n1",
        knowing table: String = "",
        settings: SWIMSettings = Self.settings,
        seed: UInt64 = 1
    ) throws -> SWIMInstance {
        let myself = SWIMMember(id: me, address: SWIMTable.address(me), generation: 1)
        var instance = try SWIMInstance(myself: myself, settings: settings, random: SeededRandom(seed: seed))
        let members = SWIMTable.parse(table)
        if let first = members.first {
            _ = instance.onAck(SWIMMessage.Ack(target: first, sequence: 0, gossip: members), from: first.id, now: .zero)
        }
        return instance
    }
}

extension [SWIMDirective] {
    /// The messages sent, in order, with their destinations.
    var sent: [(message: SWIMMessage, to: NodeID)] {
        self.compactMap { directive in
            if case .send(let message, let to) = directive { return (message, to) }
            return nil
        }
    }

    var pings: [(ping: SWIMMessage.Ping, to: NodeID)] {
        self.sent.compactMap { sent in
            if case .ping(let ping) = sent.message { return (ping, sent.to) }
            return nil
        }
    }

    var timers: [(timer: SWIMTimer, after: Duration)] {
        self.compactMap { directive in
            if case .startTimer(let timer, let after) = directive { return (timer, after) }
            return nil
        }
    }

    var events: [SWIMEvent] {
        self.compactMap { directive in
            if case .event(let event) = directive { return event }
            return nil
        }
    }
}
