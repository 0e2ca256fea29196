import Foundation
@testable import FeedBench
import TestSupport
import Testing

/// A recording in Mahimahi's format reads line by line, refuses what is not one in a line naming
/// the file and line, counts its opportunities over any stretch (repeating at its period) as a
/// naive walk over the opportunities does, and gives the figures its source states.
@Suite(.scratchFolder) struct DeliveryTraceTests {
    static func trace(_ text: String, name: String = "t.down") throws -> DeliveryTrace {
        try DeliveryTrace.parse(LineReader(bytes: Array(text.utf8), name: name, maxLineLength: 64))
    }

    static func refusal(_ text: String) -> String {
        do {
            _ = try trace(text)
            return "read"
        } catch {
            return "\(error)"
        }
    }

    @Test func readsOneOpportunityALineRepeatedTimesAndSkipsBlankLines() throws {
        let trace = try Self.trace("0\n1\n1\n\n  3 \r\n5\n")
        #expect(trace.count == 5 && trace.period == 5_000_000)
        #expect(trace.milliseconds == [0, 1, 1, 3, 5])
        #expect(try Self.trace("1").period == 1_000_000)
    }

    @Test func refusesWhatIsNotARecordingInOneLineWithItsLine() {
        #expect(Self.refusal("") == "t.down: expected lines of delivery opportunities' times in milliseconds (Mahimahi's format), found none")
        #expect(Self.refusal("\n\n") .hasPrefix("t.down: expected lines"))
        #expect(Self.refusal("0\n0\n") == "t.down:2: expected a recording that lasts: its last time is its period, and every opportunity is at 0 ms")
        #expect(Self.refusal("1\n2\nx\n") == #"t.down:3: expected a delivery opportunity's time in whole milliseconds from 0 to 86400000 (24 h), found "x""#)
        #expect(Self.refusal("1\n-4\n").hasPrefix(#"t.down:2: expected a delivery opportunity's time"#))
        #expect(Self.refusal("1.5\n").hasPrefix(#"t.down:1: expected a delivery opportunity's time"#))
        #expect(Self.refusal("86400001\n").hasPrefix("t.down:1: expected a delivery opportunity's time"))
        #expect(Self.refusal("99999999999999999999999\n").hasPrefix("t.down:1: expected a delivery opportunity's time"))
        #expect(Self.refusal("5\n7\n6\n") == "t.down:3: expected a time no earlier than the line before's 7 ms, found 6")
        #expect(Self.refusal(String(repeating: "1", count: 100)).hasPrefix("t.down:1:"))
        #expect(!Self.refusal("1\n2\n3").contains("\n") && Self.refusal("1\n2\n3") == "read")
    }

    @Test func aMissingFileIsRefusedWithItsPath() throws {
        let folder = try ScratchFolder.make()
        let path = folder.appendingPathComponent("none.down").path
        #expect(throws: InputError.self) { try DeliveryTrace.read(path: path) }
        do { _ = try DeliveryTrace.read(path: path) } catch { #expect("\(error)".hasPrefix(path)) }
        try "2\n4\n".write(toFile: folder.appendingPathComponent("ok.down").path, atomically: true, encoding: .utf8)
        #expect(try DeliveryTrace.read(path: folder.appendingPathComponent("ok.down").path).period == 4_000_000)
    }

    /// The count up to any time and the time of any opportunity, over several periods, equal a
    /// walk over every opportunity, on random recordings.
    @Test func countsAndTimesAgreeWithAWalkOverEveryOpportunity() throws {
        for seed in UInt64(1)...40 {
            var generator = SeededGenerator(seed: seed)
            var times: [UInt32] = []
            var now: UInt32 = UInt32(generator.next() % 3)
            for _ in 0..<(1 + Int(generator.next() % 30)) {
                now += UInt32(generator.next() % 4 == 0 ? generator.next() % 300 : generator.next() % 2)
                times.append(now)
            }
            if times.last == 0 { times.append(1) }
            let trace = DeliveryTrace(path: "random", milliseconds: times)
            var all: [Int64] = []
            for cycle in 0..<4 { all += times.map { (Int64($0) + Int64(cycle) * Int64(times.last!)) * 1_000_000 } }
            for k in 1...all.count { #expect(trace.time(ofOpportunity: Int64(k)) == all[k - 1], "seed \(seed) k \(k)") }
            #expect((0...times.last!).allSatisfy { Int(trace.atOrBefore[Int($0)]) == trace.searchedCount(through: $0) }, "seed \(seed)")
            for _ in 0..<50 {
                let time = Int64(generator.next() % UInt64(3 * Int64(times.last!) * 1_000_000 + 1)) - 1_000
                #expect(trace.opportunities(through: time) == Int64(all.filter { $0 <= time }.count), "seed \(seed) time \(time)")
            }
        }
    }

    /// A recording longer than an hour is not indexed by the millisecond: its counts come from
    /// a binary search, and are the same.
    @Test func aRecordingLongerThanAnHourIsSearched() {
        let long = DeliveryTrace(path: "long", milliseconds: [0, 5, 5, 1_800_000, 3_600_001])
        #expect(long.atOrBefore.isEmpty)
        let ms: Int64 = 1_000_000
        #expect(long.opportunities(through: 4 * ms) == 1 && long.opportunities(through: 5 * ms) == 3)
        #expect(long.opportunities(through: 3_600_001 * ms) == 6 && long.opportunities(through: 3_600_006 * ms) == 8, "the next period's 0 is the last time")
        #expect(long.time(ofOpportunity: 8) == 3_600_006 * ms)
    }

    /// The figures `../shared/networks/README.md` states for each recording, computed there
    /// from the same files (rates to 0.1 Mbit/s, silences a minute to 0.1, the longest to 0.1 s).
    @Test func theRecordingsGiveTheFiguresTheirSourceStates() throws {
        let stated: [(String, [Double])] = [
            ("Verizon-LTE-short.down", [5.0, 1.3, 4.3, 9.7, 2.1, 0.4, 1.4]),
            ("Verizon-LTE-short.up", [5.9, 2.3, 5.7, 10.6, 1.7, 0.4, 1.7]),
            ("TMobile-LTE-short.down", [16.7, 5.4, 13.8, 29.1, 3.9, 2.1, 0.9]),
            ("TMobile-LTE-short.up", [13.3, 3.3, 11.2, 25.3, 0.4, 0.4, 0.7]),
            ("ATT-LTE-driving-2016.down", [4.6, 0.8, 3.7, 9.7, 11.0, 3.5, 1.1]),
            ("ATT-LTE-driving-2016.up", [1.9, 0.2, 1.6, 3.7, 9.5, 4.5, 4.1]),
            ("TMobile-UMTS-driving.down", [2.0, 0.2, 1.9, 3.9, 10.7, 5.0, 5.8]),
            ("TMobile-UMTS-driving.up", [0.9, 0.3, 1.1, 1.4, 7.2, 3.6, 5.8]),
        ]
        let folder = try NetworkProfile.recordedLinksFolder()
        for (file, figures) in stated {
            let f = try DeliveryTrace.read(path: folder + "/" + file).figures
            let measured = [f.meanBitsPerSecond / 1e6, f.p10BitsPerSecond / 1e6, f.p50BitsPerSecond / 1e6, f.p90BitsPerSecond / 1e6,
                            f.silencesOver200msPerMinute, f.silencesOver500msPerMinute, Double(f.longestSilence) / 1e9]
            for (value, expected) in zip(measured, figures) {
                #expect(abs(value - expected) <= 0.05 + 1e-9, "\(file): \(measured) against \(figures)")
            }
        }
    }
}
