@testable import FeedBench
import Foundation
import TestSupport
import Testing

/// Population files: the networks a team's users are on, with their weights and path classes;
/// every malformed one refused in one line naming the file, line and field.
@Suite(.scratchFolder) struct PopulationFileTests {
    /// Writes `text` as `name` in `folder` and returns its path.
    static func file(_ folder: URL, _ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func readsPresetsAndFilesWithTheirWeightsNormalizedAndTheirPaths() throws {
        let folder = try SharedFiles.scratchDirectory()
        _ = try Self.file(folder, "train.json", #"{"name": "train", "bitsPerSecond": 3000000, "oneWayDelayMs": 80}"#)
        let path = try Self.file(folder, "ours.json", """
            {"name": "ours", "networks": [
              {"network": "wifi", "weight": 6},
              {"network": "verizon-lte", "weight": 3},
              {"network": "train.json", "weight": 1, "path": "constrained"}]}
            """)
        let population = try PopulationFile.resolve(path, option: "--networks")
        #expect(population.name == "ours")
        #expect(population.members.map(\.network.name) == ["wifi", "verizon-lte", "train"])
        #expect(population.members.map(\.weight) == [600_000, 300_000, 100_000])
        #expect(population.members.map(\.path) == [.wifi, .cellular, .constrained])
        #expect(population.members[2].network.bitsPerSecond == 3_000_000)
        #expect(population.paths == [.wifi, .cellular, .constrained])
    }

    @Test func weightsAlwaysSumToTheWholeByTheLargestRemainder() {
        #expect(NetworkPopulation.normalized([1, 1, 1]) == [333_334, 333_333, 333_333])
        #expect(NetworkPopulation.normalized([2, 1]) == [666_667, 333_333])
        for seed in 1...200 {
            var generator = SeededGenerator(seed: UInt64(seed))
            let shares = (0...generator.next(below: 9)).map { _ in 0.001 + generator.nextUnit() * 1_000 }
            let weights = NetworkPopulation.normalized(shares)
            #expect(weights.reduce(0, +) == NetworkPopulation.wholeWeight)
            #expect(weights.allSatisfy { $0 >= 0 })
        }
    }

    @Test func theBuiltInPopulationsSplitWifiAndTheRecordedCellularLinks() throws {
        let phones = try #require(try NetworkPopulation.builtIn(named: "phones", source: "test"))
        let tablets = try #require(try NetworkPopulation.builtIn(named: "tablets", source: "test"))
        #expect(phones.members.map(\.network.name) == ["wifi", "verizon-lte", "tmobile-lte", "att-lte-driving", "tmobile-umts-driving"])
        #expect(phones.weight(of: .wifi) == 562_000)
        #expect(tablets.weight(of: .wifi) == 940_000)
        #expect(phones.weight(of: .cellular) + phones.weight(of: .wifi) == NetworkPopulation.wholeWeight)
        #expect(NetworkPopulation.defaultName(for: .tablet) == "tablets")
        #expect(NetworkPopulation.defaultName(for: .lowEnd) == "phones")
    }

    /// A file's text and the refusal it must get (`<file>` is its path).
    static let refusals: [(text: String, message: String)] = [
        (#"{"name": "x", "networks": []}"#, "<file>:1: networks: expected at least one network, found an empty list"),
        (#"{"name": "x"}"#, "<file>:1: networks: expected a list of networks (e.g. {\"name\": \"ours\", \"networks\": [{\"network\": \"wifi\", \"weight\": 1}]})"),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": 0}]}", "<file>:2: weight: expected a positive number (weights are normalized), found the value \"0\""),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": -1}]}", "<file>:2: weight: expected a positive number (weights are normalized), found the value \"-1\""),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": \"lots\"}]}", "<file>:2: weight: expected a positive number (weights are normalized), found the value \"lots\""),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": 1e400}]}", "<file>:2: weight: expected a positive number (weights are normalized), found the value \"1e400\""),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\"}]}", "<file>:2: weight: expected a positive number (weights are normalized), found none"),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"nowhere.json\", \"weight\": 1, \"path\": \"wifi\"}]}",
         "<file>:2: network: expected a network preset (wifi, dsl, lte, 3g, edge, very-bad, verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving) or a readable network file, found \"nowhere.json\""),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": 1},\n{\"network\": \"wifi\", \"weight\": 2}]}",
         "<file>:3: network: expected each network once, found \"wifi\" again (first on line 2)"),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"inner.json\", \"weight\": 1, \"path\": \"wifi\"}]}",
         "<file>:2: network: expected a network, found the population file \"inner.json\": populations do not nest"),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"train.json\", \"weight\": 1}]}",
         "<file>:2: path: expected the path class of network file \"train.json\" (wifi, cellular, constrained): only a preset's is known"),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": 1, \"path\": \"satellite\"}]}",
         "<file>:2: path: expected one of wifi, cellular, constrained, found the value \"satellite\""),
        ("{\"name\": \"x\",\n\"name\": \"y\", \"networks\": []}", "<file>: name: expected each key once, found it again"),
        ("{\"name\": \"x\", \"networks\": [\n{\"network\": \"wifi\", \"weight\": 1, \"share\": 2}]}", "<file>:2: share: unknown key; expected one of network, weight, path"),
        ("[1, 2]", "<file>:1: expected a population as a mapping (e.g. {\"name\": \"ours\", \"networks\": [{\"network\": \"wifi\", \"weight\": 1}]})"),
    ]

    @Test(arguments: refusals.indices) func aMalformedFileIsRefusedInOneLine(_ index: Int) throws {
        let folder = try SharedFiles.scratchDirectory()
        _ = try Self.file(folder, "train.json", #"{"name": "train", "bitsPerSecond": 3000000}"#)
        _ = try Self.file(folder, "inner.json", #"{"name": "inner", "networks": [{"network": "wifi", "weight": 1}]}"#)
        let (text, message) = Self.refusals[index]
        let path = try Self.file(folder, "population.json", text)
        let error = try #require(throws: InputError.self) { try PopulationFile.resolve(path, option: "--networks") }
        #expect(error.description == message.replacingOccurrences(of: "<file>", with: path))
        #expect(!error.description.contains("\n"))
    }

    @Test func anUnknownNameOrAFolderIsRefusedNamingTheOption() throws {
        let error = try #require(throws: InputError.self) { try PopulationFile.resolve("commuters", option: "--networks") }
        #expect(error.description == "--networks: expected a population (phones, tablets) or a readable population file, found \"commuters\"")
    }
}
