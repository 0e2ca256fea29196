import Foundation
@testable import FeedBench
import Testing

/// `bench profiles`: every profile prints as JSON that reads back to the same profile, and the
/// tables list every built-in profile and network within 100 columns.
@Suite struct ProfileCatalogTests {
    @Test func everyBuiltInProfileReadsBackFromItsJSON() throws {
        for profile in DeviceProfile.builtIn {
            let json = ProfileCatalog.json(profile)
            #expect(try DeviceProfile(json: Array(json.utf8), source: "\(profile.name).json") == profile)
            #expect(json.split(separator: "\n").count == DeviceProfile.jsonFields.count + 2)
        }
    }

    @Test func oddFiguresAndTextReadBackExactly() throws {
        var profile = DeviceProfile.tablet
        profile.name = "odd_phone-2.5"
        profile.model = "A \"quoted\" \\ model, é and 📱"
        profile.scale = 2.61
        profile.screenWidth = 320.5
        profile.diskReadLatency = 0
        let json = ProfileCatalog.json(profile)
        #expect(json.contains("\"model\": \"A \\\"quoted\\\" \\\\ model, é and 📱\""))
        #expect(try DeviceProfile(json: Array(json.utf8), source: "odd.json") == profile)
    }

    /// A network file may leave fields out: they keep the values of the preset it names (a
    /// partial "lte" is lte, not Wi-Fi under lte's name), else Wi-Fi's; every preset reads back
    /// from its file.
    @Test func aNetworkFileThatLeavesFieldsOutKeepsThoseOfThePresetItNames() throws {
        for preset in NetworkProfile.builtIn {
            #expect(try NetworkFile.network(json: Data(NetworkFile.json(preset).utf8), source: "\(preset.name).json") == preset)
        }
        var deeper = NetworkProfile.lte
        deeper.bufferPackets = 100
        #expect(try NetworkFile.network(json: Data(#"{"name": "lte", "bufferPackets": 100}"#.utf8), source: "lte.json") == deeper)
        var mine = NetworkProfile.wifi
        mine.name = "mine"
        mine.loss = 0.01
        #expect(try NetworkFile.network(json: Data(#"{"name": "mine", "loss": 0.01}"#.utf8), source: "mine.json") == mine)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(ProfileCatalog.string("a\tb\u{1}\"\\") == "\"a\\u0009b\\u0001\\\"\\\\\"")
    }

    @Test func theTablesListEveryProfileAndNetworkWithin100Columns() throws {
        let text = try ProfileCatalog.tables
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 100 })
        for profile in DeviceProfile.builtIn {
            #expect(lines.filter { $0.hasPrefix(profile.name + " ") }.count == 2, "\(profile.name)")
        }
        for name in NetworkProfile.presetNames {
            #expect(lines.contains { $0.hasPrefix(name + " ") }, "\(name)")
        }
        #expect(text.contains("low-end   3072     1000    1400           450         150     250        800       0.30 ms"))
        #expect(text.contains("lte             50.00        50     10.000        65       0          50  1.3     2            6"))
    }
}
