import HearthCluster
import Testing

@Suite struct SWIMSettingsTests {
    @Test func defaultsAreValid() throws {
        try SWIMSettings().validate()
    }

    @Test(arguments: [
        ("pingTimeout", "must be longer than zero"),
        ("pingRequestTimeout", "must be longer than pingTimeout"),
        ("suspicionTimeoutMax", "must be at least suspicionTimeoutMin"),
        ("tombstoneTime", "must be at least suspicionTimeoutMax"),
        ("indirectProbeCount", "indirectProbeCount must be between 0 and 64"),
        ("gossipMultiplier", "gossipMultiplier must be between 1 and 64"),
    ])
    func badSettingsAreRefusedNamingTheSetting(setting: String, message: String) {
        var settings = SWIMSettings()
        switch setting {
        case "pingTimeout": settings.pingTimeout = .zero
        case "pingRequestTimeout": settings.pingRequestTimeout = settings.pingTimeout
        case "suspicionTimeoutMax": settings.suspicionTimeoutMax = .seconds(1)
        case "tombstoneTime": settings.tombstoneTime = .seconds(5)
        case "indirectProbeCount": settings.indirectProbeCount = -1
        default: settings.gossipMultiplier = 0
        }
        #expect {
            try settings.validate()
        } throws: { error in
            guard let error = error as? SWIMSettingsError else { return false }
            return error.code == .outOfRange && error.message.contains(setting) && error.message.contains(message)
        }
        #expect(throws: SWIMSettingsError.self) {
            _ = try SWIMInstance(
                myself: SWIMTable.member("n1 alive"), settings: settings, random: SystemRandomNumberGenerator())
        }
    }
}
