import Foundation
import Testing
@testable import FeedBench

/// HAR's `startedDateTime` read byte by byte gives the instant Foundation's ISO 8601 formatter
/// gives, and refuses what it refuses.
@Suite struct TimestampTests {
    @Test func agreesWithFoundationOnRandomDatesZonesAndFractions() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SeededGenerator(seed: 7, stream: 1)
        func pad(_ value: UInt64, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        for _ in 0..<2_000 {
            let year = 1971 + generator.next(below: 80), month = 1 + generator.next(below: 12)
            let day = 1 + generator.next(below: UInt64(Timestamp.daysIn(month: Int(month), year: Int(year))))
            let time = "\(pad(generator.next(below: 24), 2)):\(pad(generator.next(below: 60), 2)):\(pad(generator.next(below: 60), 2))"
            let fraction = "." + pad(generator.next(below: 1_000), 3)
            let zones = ["Z", "+01:00", "-05:30", "+14:00", "-00:00"]
            let zone = zones[Int(generator.next(below: UInt64(zones.count)))]
            let text = "\(year)-\(pad(month, 2))-\(pad(day, 2))T\(time)\(fraction)\(zone)"
            let expected = formatter.date(from: text).map { $0.timeIntervalSince1970 * 1_000 }
            let read = Timestamp.milliseconds(text)
            #expect(read != nil && expected != nil && abs(read! - expected!) < 0.001, "\(text): \(String(describing: read)) vs \(String(describing: expected))")
        }
    }

    @Test func readsTheFormsCaptureToolsWrite() {
        #expect(Timestamp.milliseconds("1970-01-01T00:00:00Z") == 0)
        #expect(Timestamp.milliseconds("1970-01-01T00:00:01.5Z") == 1_500)
        #expect(Timestamp.milliseconds("1970-01-01T01:00:00+0100") == 0)
        #expect(abs(Timestamp.milliseconds("1970-01-01 00:00:00.000123z")! - 0.123) < 1e-9)
        #expect(Timestamp.milliseconds("2000-02-29T00:00:00") == 951_782_400_000)
    }

    @Test(arguments: ["", "yesterday", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T10:00:00.Z",
                      "2026-11-23T10:00:00Zjunk", "2026-11-23T10:00:00+25:00", "2026-11-23", "2026-1-23T10:00:00Z"])
    func refusesWhatIsNotADate(text: String) {
        #expect(Timestamp.milliseconds(text) == nil)
    }
}
