/// What `bench profiles` prints: the built-in device profiles and network presets as tables,
/// and any profile as the JSON that `--profile FILE` reads — a template for a team's own device.
public enum ProfileCatalog {
    /// The built-in device profiles (screen, grid, network; memory limits and speeds), Network
    /// Link Conditioner's network presets and the recorded ones, as four tables at most 100
    /// columns wide. Refused when the recorded links' files cannot be read.
    public static var tables: String {
        get throws {
        let profiles = DeviceProfile.builtIn
        var lines = ["Device profiles (bench profiles NAME prints one as the JSON --profile reads):"]
        // `cell px`: the cell's pixels, what `--image-width cell` asks for.
        lines += TextTable.render([["profile", "model", "screen (pt)", "scale", "Hz", "columns", "cell px", "networks", "one network"]] + profiles.map { profile in
            [profile.name, profile.model, "\(number(profile.screenWidth))×\(number(profile.screenHeight))", number(profile.scale),
             String(profile.refreshRate), String(profile.columns), String(profile.cellPixels), NetworkPopulation.defaultName(for: profile) ?? "",
             profile.defaultNetwork]
        }, leftAligned: [0, 1, 7, 8])
        lines.append("")
        lines.append("Memory (MiB), speed (MiB/s) and main-thread time to configure a cell:")
        lines += TextTable.render([["profile", "RAM", "warning", "jetsam", "memory cache", "disk cache", "decode", "disk read",
                                    "read latency", "cell"]] + profiles.map { profile in
            [profile.name, mebibytes(profile.ramBytes), mebibytes(profile.memoryWarningBytes), mebibytes(profile.jetsamLimitBytes),
             mebibytes(profile.memoryCacheBytes), mebibytes(profile.diskCacheBytes), mebibytes(profile.decodeBytesPerSecond),
             mebibytes(profile.diskReadBytesPerSecond), FixedPoint.ratio(profile.diskReadLatency, 1_000_000, decimals: 2) + " ms",
             FixedPoint.ratio(profile.cellConfigurationTime, 1_000_000, decimals: 2) + " ms"]
        }, leftAligned: [0])
        lines.append("")
        lines.append("Network presets (--network NAME or FILE; bench profiles --network NAME prints its JSON):")
        lines += TextTable.render([["network", "down Mbit/s", "delay ms", "up Mbit/s", "delay ms", "loss %", "buffer pkt", "TLS", "HTTP",
                                    "connections"]] + NetworkProfile.builtIn.map { network in
            [network.name, FixedPoint.ratio(network.bitsPerSecond, 1_000_000, decimals: 2),
             FixedPoint.ratio(network.oneWayDelay.lowerBound, 1_000_000, decimals: 0),
             FixedPoint.ratio(network.uplinkBitsPerSecond, 1_000_000, decimals: 3),
             FixedPoint.ratio(network.uplinkDelay, 1_000_000, decimals: 0), FixedPoint.decimal(network.loss * 100, decimals: 0),
             String(network.bufferPackets), network.tls ? "1.3" : "off", network.http.rawValue, String(network.connectionsPerHost)]
        }, leftAligned: [0])
        lines.append("")
        lines += try recordedTable()
        lines.append("")
        lines += try populationTable()
        return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The recorded presets: the downlink's mean rate and the spread of its rate over 1-second
    /// windows, its silences, the uplink's mean, the delay each way and the queue.
    static func recordedTable() throws -> [String] {
        let lines = ["Recorded cellular links (Mahimahi's, NSDI 2013): down and up are mean rates in Mbit/s, p10/p50/p90",
                     "the downlink's over 1-s windows; its silences over 200 ms a minute and the longest; HTTP/2, TLS 1.3:"]
        var rows = [["network", "down", "p10", "p50", "p90", "silences", "longest", "up", "delay ms", "buffer pkt"]]
        for name in NetworkProfile.recordedNames {
            guard let network = try NetworkProfile.preset(named: name, source: "--network"),
                  let down = network.downlinkTrace?.figures, let up = network.uplinkTrace?.figures else { continue }
            func mbits(_ bits: Double) -> String { FixedPoint.decimal(bits / 1e6, decimals: 2) }
            rows.append([name, mbits(down.meanBitsPerSecond), mbits(down.p10BitsPerSecond), mbits(down.p50BitsPerSecond),
                         mbits(down.p90BitsPerSecond), FixedPoint.decimal(down.silencesOver200msPerMinute, decimals: 1),
                         FixedPoint.ratio(down.longestSilence, 1_000_000_000, decimals: 2) + " s", mbits(up.meanBitsPerSecond),
                         FixedPoint.ratio(network.oneWayDelay.lowerBound, 1_000_000, decimals: 0), String(network.bufferPackets)])
        }
        return lines + TextTable.render(rows, leftAligned: [0])
    }

    /// `profile` as a profile JSON file: every field of `DeviceProfile.jsonFields`, in that
    /// order, one per line; reading it back (`DeviceProfile(json:source:)`) gives `profile`.
    /// The built-in populations: each network's path class and share in each (docs/populations.md
    /// cites them).
    static func populationTable() throws -> [String] {
        let populations = try NetworkPopulation.builtInNames.map { try NetworkPopulation.builtIn(named: $0, source: "bench profiles")! }
        var lines = ["Populations (--networks NAME or FILE): the networks a built-in profile answers for (\"networks\"",
                     "above; --network asks about one), each with its share of users' time (docs/populations.md):"]
        let members = populations[0].members
        lines += TextTable.render([["network", "path"] + populations.map(\.name)] + members.map { member in
            [member.network.name, member.path.rawValue] + populations.map { population in
                population.member(named: member.network.name).map { MatrixSummary.percent($0.share) } ?? ""
            }
        }, leftAligned: [0, 1])
        return lines
    }

    public static func json(_ profile: DeviceProfile) -> String {
        let values: [String] = [
            string(profile.name), string(profile.model), number(profile.screenWidth), number(profile.screenHeight),
            number(profile.scale), String(profile.refreshRate), String(profile.columns), String(profile.ramBytes),
            String(profile.memoryWarningBytes), String(profile.jetsamLimitBytes), String(profile.decodeBytesPerSecond),
            String(profile.diskReadBytesPerSecond), String(profile.diskReadLatency), string(profile.defaultNetwork),
            String(profile.memoryCacheBytes), String(profile.diskCacheBytes), String(profile.cellConfigurationTime),
        ]
        let fields = zip(DeviceProfile.jsonFields, values).map { "  \(string($0)): \($1)" }
        return "{\n" + fields.joined(separator: ",\n") + "\n}\n"
    }

    /// A whole number of MiB without decimals, otherwise one decimal.
    static func mebibytes(_ bytes: Int64) -> String {
        bytes % 1_048_576 == 0 ? String(bytes / 1_048_576) : FixedPoint.ratio(bytes, 1_048_576, decimals: 1)
    }

    /// A JSON number: whole values without a fraction (`375`), others as Swift writes them
    /// (shortest form that reads back exactly).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A JSON string literal: quotes and backslashes escaped, control characters as `\u00XX`.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                out += "\\" + String(scalar)
            } else if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
