import Foundation

/// The presets of recorded cellular links: Mahimahi's recordings of Verizon's, T-Mobile's and
/// AT&T's networks (Winstein et al., NSDI 2013; `Sources/FeedBench/RecordedLinks/`, GPL-3.0),
/// each direction driven by its recording, behind a queue and delays from measurements
/// (docs/facts.md#real-cellular-links). A preset's recordings are read the first time it is
/// asked for, not before, and once.
extension NetworkProfile {
    /// A recorded preset: its name, its recordings' file names without `.down`/`.up`, and its
    /// one-way delay each way.
    struct RecordedPreset: Sendable {
        let name: String
        let recording: String
        let oneWayDelay: Int64
    }

    /// Seconds of the downlink's median rate the recorded presets' queue holds: the 0.7 s of
    /// Pantheon's emulator calibrated to a cellular path (362 packets at 6.25 Mbit/s; Yan et al.,
    /// USENIX ATC 2018), at the short end of what cellular paths measure (Jiang et al., IMC 2012:
    /// round trips of seconds under load).
    static let recordedQueueSeconds = 0.7

    /// The recorded presets, in the order reports list them. The LTE recordings' round trip is
    /// 50 ms (25 ms each way: the recordings' own server was "generally less than 50 ms RTT from
    /// the carrier's first/last hop", their authors' data-collection notes; Epitiro measured
    /// 23 ms on LTE in 2011); UMTS's 100 ms (the low end of the 98–189 ms Epitiro measured on 3G).
    static let recordedPresets = [
        RecordedPreset(name: "verizon-lte", recording: "Verizon-LTE-short", oneWayDelay: 25 * millisecond),
        RecordedPreset(name: "tmobile-lte", recording: "TMobile-LTE-short", oneWayDelay: 25 * millisecond),
        RecordedPreset(name: "att-lte-driving", recording: "ATT-LTE-driving-2016", oneWayDelay: 25 * millisecond),
        RecordedPreset(name: "tmobile-umts-driving", recording: "TMobile-UMTS-driving", oneWayDelay: 50 * millisecond),
    ]

    /// The recorded presets' names.
    public static var recordedNames: [String] { recordedPresets.map(\.name) }

    /// Every preset's name: Network Link Conditioner's, then the recorded ones.
    public static var presetNames: [String] { builtIn.map(\.name) + recordedNames }

    /// The preset named `name`, `nil` when none is; a recorded preset whose recordings cannot
    /// be read is refused, `source` naming where the name came from. O(opportunities) for a
    /// recorded one (its files are read once a process: `DeliveryTrace.read`).
    public static func preset(named name: String, source: String) throws -> NetworkProfile? {
        if let preset = builtIn.first(where: { $0.name == name }) { return preset }
        guard let preset = recordedPresets.first(where: { $0.name == name }) else { return nil }
        return try recorded(preset, source: source)
    }

    /// `preset` from its recordings: HTTP/2 over TLS as the other presets, no random loss (the
    /// recordings' losses are their silences), the queue `recordedQueueSeconds` of the downlink's
    /// median rate, QA1774's cellular idle timeout.
    static func recorded(_ preset: RecordedPreset, source: String) throws -> NetworkProfile {
        let folder = try recordedLinksFolder(source: source)
        let down = try DeliveryTrace.read(path: folder + "/" + preset.recording + ".down")
        let up = try DeliveryTrace.read(path: folder + "/" + preset.recording + ".up")
        let median = down.figures.p50BitsPerSecond
        let packets = max(1, Int((recordedQueueSeconds * median / (DeliveryTrace.opportunityWire * 8)).rounded()))
        var network = NetworkProfile(name: preset.name, bitsPerSecond: 1, oneWayDelay: preset.oneWayDelay...preset.oneWayDelay,
                                     uplinkDelay: preset.oneWayDelay, bufferPackets: packets, http: .http2, idleTimeout: cellularIdleTimeout)
        network.record(downlink: down)
        network.record(uplink: up)
        return network
    }

    /// Where the recordings are: in the resources beside the executable (SwiftPM's
    /// `FeedBench_FeedBench.resources`, which a build puts there), else in the sources this
    /// binary was built from. Refused in one line when neither has them.
    static func recordedLinksFolder(source: String = "--network") throws -> String {
        var candidates: [String] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            candidates.append(executable.appendingPathComponent("FeedBench_FeedBench.resources/RecordedLinks").path)
        }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(sources.appendingPathComponent("RecordedLinks").path)
        for folder in candidates where FileManager.default.fileExists(atPath: folder + "/COPYING") { return folder }
        throw InputError(source: source, "expected the recorded links' files beside bench (FeedBench_FeedBench.resources/RecordedLinks, which the build writes) or in its sources, found neither: \(candidates.joined(separator: ", "))")
    }
}
