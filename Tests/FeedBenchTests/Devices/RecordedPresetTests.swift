import Foundation
@testable import FeedBench
import TestSupport
import Testing

/// The recorded presets and network files that name recordings: each preset is its recordings
/// behind 0.7 s of queue at the median rate over HTTP/2; a file's recording is relative to the
/// file, reads back from the JSON `bench profiles` prints, and is refused beside a rate for its
/// direction or where no file can name one.
@Suite(.scratchFolder) struct RecordedPresetTests {
    @Test func eachPresetIsItsRecordingsBehindSevenTenthsOfASecondOfQueue() throws {
        #expect(NetworkProfile.recordedNames == ["verizon-lte", "tmobile-lte", "att-lte-driving", "tmobile-umts-driving"])
        for name in NetworkProfile.recordedNames {
            let network = try #require(try NetworkProfile.preset(named: name, source: "test"))
            let down = try #require(network.downlinkTrace), up = try #require(network.uplinkTrace)
            #expect(network.http == .http2 && network.tls && network.loss == 0 && network.recordingStart == nil)
            let queueSeconds = Double(network.bufferPackets) * 12_000 / down.figures.p50BitsPerSecond
            #expect(abs(queueSeconds - 0.7) < 0.01, "\(name): \(queueSeconds) s")
            #expect(network.bitsPerSecond == NetworkProfile.meanBitsPerSecond(down) && network.uplinkBitsPerSecond == NetworkProfile.meanBitsPerSecond(up))
            #expect(try NetworkFile.network(json: Data(NetworkFile.json(network).utf8), source: "\(name).json") == network)
            #expect(try NetworkProfile.named(name) == network)
        }
        #expect(try NetworkProfile.preset(named: "verizon-lte", source: "t")?.bufferPackets == 249)
        #expect(try NetworkProfile.preset(named: "nowhere", source: "t") == nil)
    }

    @Test func aFilesRecordingIsRelativeToTheFileAndItsOtherDirectionKeepsItsBase() throws {
        let folder = try ScratchFolder.make()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("links"), withIntermediateDirectories: true)
        try "1\n1\n2\n".write(to: folder.appendingPathComponent("links/mine.down"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("mine.json").path
        try #"{"name": "verizon-lte", "downlinkTrace": "links/mine.down", "recordingStartMs": 1500}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let network = try NetworkFile.resolve(file, option: "--network")
        #expect(network.downlinkTrace?.count == 3 && network.downlinkTrace?.path == folder.appendingPathComponent("links/mine.down").path)
        #expect(network.bitsPerSecond == 18_000_000 && network.recordingStart == 1_500_000_000)
        #expect(network.uplinkTrace?.name == "Verizon-LTE-short.up" && network.bufferPackets == 249)
        #expect(NetworkFile.json(network).contains(#""recordingStartMs": 1500"#) && !NetworkFile.json(network).contains("bitsPerSecond\": 18"))

        let fixed = try NetworkFile.network(json: Data(#"{"name": "verizon-lte", "bitsPerSecond": 2000000}"#.utf8), source: file)
        #expect(fixed.downlinkTrace == nil && fixed.bitsPerSecond == 2_000_000 && fixed.uplinkTrace != nil)
    }

    static func refusal(_ json: String, source: String) -> String {
        do {
            _ = try NetworkFile.network(json: Data(json.utf8), source: source)
            return "read"
        } catch {
            return "\(error)"
        }
    }

    @Test func aRecordingBesideARateAMissingOneOrOneWithoutAFileIsRefusedInOneLine() throws {
        let folder = try ScratchFolder.make().path
        let source = folder + "/n.json"
        #expect(Self.refusal(#"{"name": "x", "bitsPerSecond": 2000000, "downlinkTrace": "a.down"}"#, source: source)
                == "\(source): network.downlinkTrace: expected a recording or bitsPerSecond for this direction, found both")
        #expect(Self.refusal(#"{"name": "x", "uplinkBitsPerSecond": 2000000, "uplinkTrace": "a.up"}"#, source: source)
                .hasSuffix("network.uplinkTrace: expected a recording or uplinkBitsPerSecond for this direction, found both"))
        #expect(Self.refusal(#"{"name": "x", "downlinkTrace": "none.down"}"#, source: source).hasPrefix(folder + "/none.down"))
        #expect(Self.refusal(#"{"name": "x", "downlinkTrace": ""}"#, source: source).contains("network.downlinkTrace: expected the path of a recording"))
        #expect(Self.refusal(#"{"name": "x", "recordingStartMs": 1.5}"#, source: source).contains("network.recordingStartMs"))
        #expect(Self.refusal(#"{"name": "x", "bufferPackets": 0}"#, source: source).contains("network.bufferPackets"))
        for message in [Self.refusal(#"{"name": "x", "downlinkTrace": "none.down"}"#, source: source)] { #expect(!message.contains("\n")) }

        let change = Data(#"{"network": {"name": "x", "downlinkTrace": "/etc/hostname"}}"#.utf8)
        #expect(throws: InputError.self) { try ServeConditions(network: .lte).applying(json: change, source: "PUT /_conditions") }
        let preset = try ServeConditions(network: .lte).applying(json: Data(#"{"network": "tmobile-lte"}"#.utf8), source: "PUT /_conditions")
        #expect(preset.network.downlinkTrace?.name == "TMobile-LTE-short.down")
    }
}
