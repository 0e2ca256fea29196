import Foundation
import Testing
@testable import FeedBench

@Suite struct DeviceProfileTests {
    @Test func builtInProfilesCarryTheReferenceFacts() {
        #expect(DeviceProfile.builtIn.map(\.name) == ["low-end", "mid", "high-end", "tablet"])
        // A full-width square bitmap: ≈2.25 MB on the SE, ≈5.5 MB on an iPhone 13.
        #expect(DeviceProfile.lowEnd.cellPixels * DeviceProfile.lowEnd.cellPixels * 4 == 2_250_000)
        #expect(DeviceProfile.mid.cellPixels * DeviceProfile.mid.cellPixels * 4 == 5_475_600)
        #expect(DeviceProfile.highEnd.frameInterval == 8_333_333)
        #expect(DeviceProfile.lowEnd.frameInterval == 16_666_667)
        for profile in DeviceProfile.builtIn { #expect(throws: Never.self) { try profile.validate(source: "built-in") } }
    }

    @Test func unknownNamesListTheValidOnes() {
        #expect(throws: InputError(source: "--profile", "unknown profile \"pixel\"; expected one of low-end, mid, high-end, tablet or a .json file")) {
            try DeviceProfile.named("pixel")
        }
        #expect(throws: InputError(source: "--network", "unknown network \"5g\"; expected one of wifi, dsl, lte, 3g, edge, very-bad")) {
            try NetworkProfile.named("5g")
        }
    }

    @Test func userProfilesRoundTripThroughJSONAndBadFieldsAreNamed() throws {
        var phone = DeviceProfile.lowEnd
        phone.name = "my-phone"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("my-phone.json").path
        try JSONEncoder().encode(phone).write(to: URL(fileURLWithPath: path))
        #expect(try DeviceProfile.named(path) == phone)

        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(phone)) as! [String: Any]
        object["columns"] = 0
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError(source: path, field: "columns", "expected 1...8 columns")) { try DeviceProfile.load(path: path) }
        object["columns"] = "three"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect((try? DeviceProfile.load(path: path)) == nil)
        object.removeValue(forKey: "columns")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError(source: path, field: "columns", "missing; every field of a profile is required (see README)")) {
            try DeviceProfile.load(path: path)
        }
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError.self) { try DeviceProfile.load(path: path) }
    }
}
