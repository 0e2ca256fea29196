import Foundation
import Testing
@testable import FeedBench

/// What the main job says of its network is what CI checks against ns-3, no more.
@Suite struct NetworkAgreementTests {
    /// `.ci/ns3-check`'s array `name`: its quoted items, each a comma-separated list of networks.
    static func checkArray(_ name: String) throws -> [[String]] {
        let script = try String(contentsOf: SharedFiles.packageRoot.appendingPathComponent(".ci/ns3-check"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("\(name)=(") }, "\(name) in .ci/ns3-check")
        return line.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { $0.element.split(separator: ",").map(String.init) }
    }

    @Test func theNetworksHeldAreTheOnesTheNs3CheckChecks() throws {
        // NLC's presets: a reader, then a browser; the recorded ones: a reader, a browser, then
        // a skimmer (`recorded_session_kinds`).
        for (http, prefix) in [(HTTPVersion.http11, ""), (.http2, "h2_")] {
            let perDownload = try Self.checkArray(prefix + "checked_networks")
            let distributions = try Self.checkArray(prefix + "dist_checked_networks")
            let recordedPerDownload = try Self.checkArray("recorded_" + prefix + "checked_networks")
            let recordedDistributions = try Self.checkArray("recorded_" + prefix + "dist_checked_networks")
            let recordedStalls = try Self.checkArray("recorded_" + prefix + "stall_checked_networks")
            for (index, session) in NetworkAgreement.Session.allCases.enumerated() {
                let entry = try #require(NetworkAgreement.checked.first { $0.http == http && $0.session == session })
                let fixed = index < perDownload.count ? (perDownload[index], distributions[index]) : ([], [])
                #expect(entry.perDownload.sorted() == (fixed.0 + recordedPerDownload[index]).sorted(), "\(http.label) \(session)")
                #expect(entry.distributions.sorted() == (fixed.1 + recordedDistributions[index]).sorted(), "\(http.label) \(session)")
                #expect(entry.stalls.sorted() == recordedStalls[index].sorted(), "\(http.label) \(session)")
            }
        }
        #expect(NetworkAgreement.checked.count == 6)
    }

    @Test func aRecordedPresetSaysWhatHoldsOfItsThreeSessionKinds() throws {
        let verizon = try NetworkProfile.named("verizon-lte")
        #expect(NetworkAgreement.summary(of: verizon)
            == "  network verizon-lte (HTTP/2): ns-3: reader downloads, browser distributions, skimmer stalls")
        var att = try NetworkProfile.named("att-lte-driving")
        #expect(NetworkAgreement.summary(of: att)
            == "  network att-lte-driving (HTTP/2): ns-3: reader and skimmer stalls; not browser")
        #expect(NetworkAgreement.summary(of: try NetworkProfile.named("tmobile-umts-driving"))
            == "  network tmobile-umts-driving (HTTP/2): ns-3: reader, browser and skimmer stalls")
        att.http = .http11
        #expect(NetworkAgreement.summary(of: att) == "  network att-lte-driving (HTTP/1.1): ns-3: reader and skimmer stalls; not browser")
        let tail = ": those runs are the model's alone (docs/network.md)"
        let lines = NetworkAgreement.lines(networks: [verizon], workloads: [.behavior(.browser, duration: 1), .behavior(.skimmer, duration: 1)])
        #expect(!lines.contains { $0.hasSuffix(tail) }, "the skimmer is replayed on a recorded preset: \(lines)")
        var pinned = verizon
        pinned.recordingStart = 1_000_000_000
        #expect(NetworkAgreement.summary(of: pinned).contains("a changed preset"))
        for http in HTTPVersion.allCases {
            for name in NetworkProfile.recordedNames {
                var network = try NetworkProfile.named(name)
                network.http = http
                #expect(NetworkAgreement.summary(of: network).count <= 100, "\(name)")
            }
        }
    }

    @Test func aPresetSaysWhichSessionsHoldAndHowClosely() {
        #expect(NetworkAgreement.summary(of: .lte)
            == "  network lte (HTTP/2): ns-3 holds reader downloads, not browser sessions (docs/network.md)")
        #expect(NetworkAgreement.summary(of: .wifi)
            == "  network wifi (HTTP/2): ns-3 holds reader and browser downloads (docs/network.md)")
        #expect(NetworkAgreement.summary(of: .threeG)
            == "  network 3g (HTTP/2): ns-3 holds reader downloads and browser distributions (docs/network.md)")
        var veryBad = NetworkProfile.veryBad
        veryBad.http = .http11
        #expect(NetworkAgreement.summary(of: veryBad)
            == "  network very-bad (HTTP/1.1): not held by ns-3: the answer is the model's alone (docs/network.md)")
        var threeG = NetworkProfile.threeG
        threeG.http = .http11
        #expect(NetworkAgreement.summary(of: threeG)
            == "  network 3g (HTTP/1.1): ns-3 holds reader distributions, not browser sessions (docs/network.md)")
        var edge = NetworkProfile.edge
        #expect(NetworkAgreement.summary(of: edge)
            == "  network edge (HTTP/2): ns-3 holds reader distributions, not browser sessions (docs/network.md)")
        edge.http = .http11
        #expect(NetworkAgreement.summary(of: edge)
            == "  network edge (HTTP/1.1): not held by ns-3: the answer is the model's alone (docs/network.md)")
        for http in HTTPVersion.allCases {
            for var network in NetworkProfile.builtIn {
                network.http = http
                #expect(NetworkAgreement.summary(of: network).count <= 100, "\(network.name)")
            }
        }
    }

    /// The check replays reader and browser sessions only: an answer that also ran other
    /// workloads (the main job's skimmer) says that those runs rest on the model alone.
    @Test func anAnswerNamesItsWorkloadsTheCheckNeverReplays() {
        func behaviors(_ names: ScrollBehavior...) -> [ScrollWorkload] { names.map { .behavior($0, duration: 1) } }
        func recorded(_ name: String) -> ScrollWorkload { .recorded(ScrollTrace(name: name, frameInterval: 1, offsets: [0])) }
        let lte = NetworkAgreement.summary(of: .lte)
        let held = "  held with Linux's idle restart, idle clock and timeout threshold off, which ns-3 lacks"
        #expect(held == NetworkAgreement.checkedAs && held.count <= 100)
        let tail = ": those runs are the model's alone (docs/network.md)"
        #expect(NetworkAgreement.lines(networks: [.lte], workloads: behaviors(.browser, .skimmer))
            == [lte, held, "  ns-3 replays no skimmer session" + tail])
        #expect(NetworkAgreement.lines(networks: [.lte], workloads: behaviors(.reader, .browser)) == [lte, held])
        #expect(NetworkAgreement.lines(networks: [.lte], workloads: behaviors(.skimmer, .revisitor, .skimmer))
            == [lte, held, "  ns-3 replays no skimmer or revisitor sessions" + tail])
        // A recorded trace is never replayed, whatever its name.
        #expect(NetworkAgreement.lines(networks: [.lte], workloads: [recorded("browser")])
            == [lte, held, "  ns-3 replays no browser session" + tail])
        #expect(NetworkAgreement.lines(networks: [.lte], workloads: behaviors(.skimmer, .revisitor) + [recorded("capture")])
            == [lte, held, "  3 workloads are not among ns-3's sessions" + tail])
        #expect(NetworkAgreement.lines(networks: [.lte], workloads: [recorded(String(repeating: "a-long-capture-", count: 5))])
            == [lte, held, "  1 workload is not among ns-3's sessions" + tail])
        // One held network is enough for the lines; where ns-3 holds nothing, the network's own
        // line already says the answer is the model's alone.
        var unheld = NetworkProfile.edge
        unheld.http = .http11
        #expect(NetworkAgreement.lines(networks: [unheld, .lte], workloads: behaviors(.skimmer)).count == 4)
        #expect(NetworkAgreement.lines(networks: [unheld], workloads: behaviors(.skimmer)) == [NetworkAgreement.summary(of: unheld)])
        var deeper = NetworkProfile.lte
        deeper.bufferPackets = 1_000
        #expect(NetworkAgreement.lines(networks: [deeper], workloads: behaviors(.skimmer)) == [NetworkAgreement.summary(of: deeper)])
    }

    /// Only a preset as it is: the check replays the presets, not a network file's figures.
    @Test func aNetworkOfOnesOwnOrAChangedPresetIsNotHeld() {
        var deeper = NetworkProfile.lte
        deeper.bufferPackets = 1_000
        #expect(NetworkAgreement.summary(of: deeper) == "  network lte (HTTP/2): a changed preset: ns-3 holds only the presets (docs/network.md)")
        deeper.name = "my-lte"
        #expect(NetworkAgreement.summary(of: deeper) == "  network my-lte (HTTP/2): not a preset: ns-3 holds only the presets (docs/network.md)")
    }
}
