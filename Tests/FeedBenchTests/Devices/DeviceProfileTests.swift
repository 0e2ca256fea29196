import Foundation
import TestSupport
import Testing
@testable import FeedBench

@Suite(.scratchFolder) struct DeviceProfileTests {
    @Test func builtInProfilesCarryTheReferenceFacts() throws {
        #expect(DeviceProfile.builtIn.map(\.name) == ["low-end", "mid", "high-end", "tablet"])
        // A full-width square bitmap: ≈2.25 MB on the SE, ≈5.5 MB on an iPhone 13.
        #expect(DeviceProfile.lowEnd.cellPixels * DeviceProfile.lowEnd.cellPixels * 4 == 2_250_000)
        #expect(DeviceProfile.mid.cellPixels * DeviceProfile.mid.cellPixels * 4 == 5_475_600)
        #expect(DeviceProfile.highEnd.frameInterval == 8_333_333)
        #expect(DeviceProfile.lowEnd.frameInterval == 16_666_667)
        // Each passes the JSON reader's checks: written as JSON, it reads back equal.
        for profile in DeviceProfile.builtIn {
            let json = Array(try JSONEncoder().encode(profile))
            #expect(try DeviceProfile(json: json, source: "built-in") == profile)
        }
    }

    @Test func unknownNamesListTheValidOnes() {
        #expect(throws: InputError(source: "--profile", "unknown profile \"pixel\"; expected one of low-end, mid, high-end, tablet or a .json file")) {
            try DeviceProfile.named("pixel")
        }
        #expect(throws: InputError(source: "--network", "unknown network \"5g\"; expected one of wifi, dsl, lte, 3g, edge, very-bad, verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving")) {
            try NetworkProfile.named("5g")
        }
    }

    @Test func userProfilesRoundTripThroughJSONAndBadFieldsAreNamed() throws {
        var phone = DeviceProfile.lowEnd
        phone.name = "my-phone"
        let folder = try SharedFiles.scratchDirectory()
        let path = folder.appendingPathComponent("my-phone.json").path
        try JSONEncoder().encode(phone).write(to: URL(fileURLWithPath: path))
        #expect(try DeviceProfile.named(path) == phone)

        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(phone)) as! [String: Any]
        object["columns"] = 0
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError(source: path, line: 1, field: "columns", "expected an integer count of columns in 1...8, found \"0\"")) {
            try DeviceProfile.load(path: path)
        }
        object["columns"] = "three"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect((try? DeviceProfile.load(path: path)) == nil)
        object.removeValue(forKey: "columns")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError(source: path, line: 1, field: "columns", "expected every field of a profile (see docs/model.md), found this one missing")) {
            try DeviceProfile.load(path: path)
        }
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError.self) { try DeviceProfile.load(path: path) }
    }

    /// `cellConfigurationTime`: whole nanoseconds from 0 to 1 s, refused naming the field; a
    /// file written before the field existed reads with the standard time for its decoder.
    @Test func theCellConfigurationTimeIsCheckedAndAMissingOneIsTheStandardOne() throws {
        func json(_ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
            var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(DeviceProfile.lowEnd)) as! [String: Any]
            edit(&object)
            return Array(try JSONSerialization.data(withJSONObject: object))
        }
        for (value, found) in [(-1 as Any, "\"-1\""), (1_000_000_001, "\"1000000001\""), ("x", "the string \"x\""), (2.5, "\"2.5\"")] {
            let bytes = try json { $0["cellConfigurationTime"] = value }
            #expect(throws: InputError(source: "mine.json", line: 1, field: "cellConfigurationTime",
                                       "expected an integer of nanoseconds in 0...1000000000, found \(found)")) {
                try DeviceProfile(json: bytes, source: "mine.json")
            }
        }
        for value: Int64 in [0, 1_000_000_000] {
            #expect(try DeviceProfile(json: json { $0["cellConfigurationTime"] = value }, source: "mine.json").cellConfigurationTime == value)
        }

        let older = try DeviceProfile(json: json { $0.removeValue(forKey: "cellConfigurationTime") }, source: "older.json")
        #expect(older == DeviceProfile.lowEnd, "the low-end phone's own time")
        #expect(older.cellConfigurationTime == 2_000_000)
        let faster = try DeviceProfile(json: json {
            $0.removeValue(forKey: "cellConfigurationTime")
            $0["decodeBytesPerSecond"] = 500 << 20
        }, source: "faster.json")
        #expect(faster.cellConfigurationTime == 1_000_000, "twice the decoder's speed, half the time")
        #expect(faster.cellConfigurationTime == DeviceProfile.standardCellConfiguration(decodeBytesPerSecond: 500 << 20))
    }
}
