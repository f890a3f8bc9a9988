// swift-tools-version: 6.1
import PackageDescription

/// Settings every Hearth target shares: Swift 6 language mode plus the upcoming features that keep module
/// boundaries honest (see docs/architecture.md).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .executable(name: "hearth-bench", targets: ["hearth-bench"]),
        .library(name: "Hearth", targets: ["Hearth"]),
        .library(name: "HearthCore", targets: ["HearthCore"]),
        .library(name: "HearthWire", targets: ["HearthWire"]),
        .library(
            name: "HearthServer",
            targets: ["HearthDatabase", "HearthFrontEnds", "HearthNode", "HearthReplication", "HearthServer"]
        ),
        .library(name: "HearthSystem", targets: ["HearthSystem"]),
    ],
    targets: [
        .target(name: "CHearthSystem"),
        .target(name: "HearthCore", swiftSettings: strictSettings),
        .target(name: "HearthSystem", dependencies: ["CHearthSystem"], swiftSettings: strictSettings),
        .target(
            name: "HearthNet",
            dependencies: ["CHearthSystem", "HearthCore", "HearthSystem"],
            swiftSettings: strictSettings
        ),
        .target(name: "HearthStorage", dependencies: ["HearthCore", "HearthSystem"], swiftSettings: strictSettings),
        .target(name: "HearthWire", dependencies: ["HearthCore"], swiftSettings: strictSettings),
        .target(name: "HearthRules", dependencies: ["HearthCore"], swiftSettings: strictSettings),
        .target(
            name: "HearthConsole",
            dependencies: ["HearthCore", "HearthNet"],
            resources: [.embedInCode("Assets")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthCluster",
            dependencies: ["HearthCore", "HearthNet", "HearthStorage", "HearthSystem"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthNode",
            dependencies: [
                "HearthCluster", "HearthCore", "HearthNet", "HearthRules", "HearthStorage", "HearthSystem",
                "HearthWire",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthDatabase",
            dependencies: [
                "HearthCluster", "HearthCore", "HearthNet", "HearthNode", "HearthStorage", "HearthSystem", "HearthWire",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthReplication",
            dependencies: [
                "HearthCluster", "HearthCore", "HearthDatabase", "HearthNet", "HearthNode", "HearthStorage",
                "HearthSystem", "HearthWire",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthFrontEnds",
            dependencies: [
                "HearthConsole", "HearthCore", "HearthDatabase", "HearthNet", "HearthNode", "HearthRules",
                "HearthStorage", "HearthSystem", "HearthWire",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthCluster", "HearthCore", "HearthDatabase", "HearthFrontEnds", "HearthNet", "HearthNode",
                "HearthReplication", "HearthStorage", "HearthSystem",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Hearth",
            dependencies: ["HearthCore", "HearthNet", "HearthStorage", "HearthSystem", "HearthWire"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "hearth",
            dependencies: [
                "HearthDatabase", "HearthFrontEnds", "HearthNode", "HearthReplication", "HearthServer", "HearthSystem",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthBench",
            dependencies: ["Hearth", "HearthCore", "HearthNet", "HearthSystem", "HearthWire"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "hearth-bench",
            dependencies: ["HearthBench"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "hearth-client-probe",
            dependencies: ["Hearth"],
            path: "Tests/ClientProbe",
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthFuzzTargets",
            dependencies: [
                "HearthCluster", "HearthCore", "HearthFrontEnds", "HearthNet", "HearthReplication", "HearthRules",
                "HearthServer", "HearthTestKit", "HearthWire",
            ],
            path: "Tests/Fuzz/Targets",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "hearth-fuzz",
            dependencies: ["HearthFuzzTargets", "HearthTestKit"],
            path: "Tests/Fuzz/Runner",
            swiftSettings: strictSettings
        ),
        .target(
            name: "HearthTestKit",
            dependencies: ["HearthCore", "HearthStorage", "HearthSystem", "HearthWire"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthSystemTests",
            dependencies: ["HearthSystem"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthCoreTests",
            dependencies: ["CHearthSystem", "HearthCore", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthNetTests",
            dependencies: ["HearthNet", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthStorageTests",
            dependencies: ["HearthStorage", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthRulesTests",
            dependencies: ["HearthRules", "HearthCore", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthConsoleTests",
            dependencies: ["HearthConsole", "HearthNet"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthWireTests",
            dependencies: ["HearthWire", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthClusterTests",
            dependencies: ["HearthCluster", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthServerTests",
            dependencies: [
                "HearthDatabase", "HearthFrontEnds", "HearthNode", "HearthReplication", "HearthRules", "HearthServer",
                "HearthSystem", "HearthTestKit",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthBenchTests",
            dependencies: ["HearthBench", "HearthCore", "HearthSystem", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthTests",
            dependencies: ["Hearth", "HearthStorage", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthFuzzTests",
            dependencies: ["HearthFuzzTargets", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HearthIntegrationTests",
            dependencies: ["HearthDatabase", "HearthServer", "HearthSystem", "HearthTestKit"],
            swiftSettings: strictSettings
        ),
    ]
)
