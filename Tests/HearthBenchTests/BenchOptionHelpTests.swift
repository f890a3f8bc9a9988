import Foundation
import Testing

@testable import HearthBench

/// The `--help` of `hearth bench stars` and `hearth bench fanout` lists every option their parsers read, each with
/// its meaning and default, and the parsers read every option the help lists.
@Suite struct BenchOptionHelpTests {
    /// The options a parser's source reads: every `case "--name"` in `file` under Sources/HearthBench.
    private static func optionsRead(in file: String) throws -> Set<String> {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/HearthBench/" + file)
        let text = try String(contentsOf: sources, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"case "(--[a-z-]+)""#)
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        return Set(matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    /// Whether `parse` reads `option` (given a value when it takes one): any error it throws is about the value.
    private static func reads(_ option: BenchOption, _ parse: ([String]) throws(BenchOptionsError) -> Void) -> Bool {
        do {
            try parse(option.value == nil ? [option.name] : [option.name, "1"])
            return true
        } catch {
            return !error.problem.contains("is not an option") && !error.problem.contains("does not read it")
        }
    }

    /// Every option the stars parser reads is declared, so its help lists it; each declared one is read.
    @Test func starsHelpListsEveryOptionItsParserReads() throws {
        let declared = Set(StarsOptions.options.map(\.name))
        #expect(try Self.optionsRead(in: "Options/StarsOptions+Parsing.swift") == declared)
        for option in StarsOptions.options {
            let read = Self.reads(option) { arguments throws(BenchOptionsError) in
                _ = try StarsOptions(arguments: arguments)
            }
            #expect(read, "\(option.name)")
        }
    }

    /// Every option the fanout parser reads is declared, so its help lists it; each declared one is read.
    @Test func fanoutHelpListsEveryOptionItsParserReads() throws {
        let declared = Set(FanoutOptions.options.map(\.name))
        #expect(try Self.optionsRead(in: "Fanout/FanoutOptions+Parsing.swift") == declared)
        for option in FanoutOptions.options {
            let read = Self.reads(option) { arguments throws(BenchOptionsError) in
                _ = try FanoutOptions(arguments: arguments)
            }
            #expect(read, "\(option.name)")
        }
    }

    /// The help names each option with its meaning and, where one applies, its default.
    @Test func helpGivesEachOptionItsMeaningAndDefault() {
        let helps = [(StarsOptions.usage, StarsOptions.options), (FanoutOptions.usage, FanoutOptions.options)]
        for (usage, options) in helps {
            let flattened = usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for option in options {
                #expect(flattened.contains(option.name), "\(option.name)")
                #expect(flattened.contains(option.meaning), "\(option.name)")
                if let byDefault = option.byDefault {
                    #expect(flattened.contains("(default \(byDefault))"), "\(option.name)")
                }
            }
        }
        #expect(StarsOptions.usage.contains("--posts N") && StarsOptions.usage.contains("(default 20)"))
    }

    /// A default length is written the way its option reads it back.
    @Test func defaultLengthsReadBack() throws {
        for length in [Duration.seconds(30), .milliseconds(1500), .milliseconds(200)] {
            #expect(try OptionValues.duration("--duration", OptionValues.text(of: length)) == length)
        }
    }

    /// A name that is declared nowhere is refused as no option of the command.
    @Test func anUndeclaredOptionIsRefused() {
        #expect(throws: BenchOptionsError("--speed", "is not an option of hearth bench stars")) {
            try StarsOptions(arguments: ["--speed", "1"])
        }
        #expect(throws: BenchOptionsError("--speed", "is not an option of hearth bench fanout")) {
            try FanoutOptions(arguments: ["--speed", "1"])
        }
    }
}
