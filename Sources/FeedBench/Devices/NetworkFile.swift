import Foundation

/// A network as a JSON file: what `bench profiles --network NAME` prints and `--network FILE`
/// reads (and the `network` object of `--conditions` and `--workload`). Every field is optional
/// in a file but `name`; a missing one keeps Wi-Fi's value. Durations are milliseconds; the
/// one-way delay is a number (fixed) with optional `jitterMs`, or the earlier `[min, max]`.
public enum NetworkFile {
    /// The fields, in the order the JSON lists them.
    public static let fields = ["name", "bitsPerSecond", "uplinkBitsPerSecond", "downlinkTrace", "uplinkTrace", "recordingStartMs", "oneWayDelayMs", "jitterMs", "uplinkDelayMs", "loss",
                                "uplinkLoss", "bufferPackets", "initialWindowSegments", "maxSegmentBytes", "slowStartAfterIdle",
                                "cubicPausesWhenIdle", "recoveryTimeoutKeepsThreshold", "tls", "http", "connectionsPerHost", "maxConcurrentStreams",
                                "streamWindowBytes", "connectionWindowBytes", "idleTimeoutMs", "retryTimeoutMs", "maxRetries"]

    /// `network`'s fields as JSON values, in `fields`' order: a recorded direction gives its
    /// recording's path instead of its rate, and `recordingStartMs` is there only when set.
    static func values(_ network: NetworkProfile) -> [(key: String, value: String)] {
        let ms = ServeConditions.milliseconds
        let delay = network.oneWayDelay
        let absent = ""
        let values = [
            ServeConditions.jsonString(network.name),
            network.downlinkTrace == nil ? String(network.bitsPerSecond) : absent,
            network.uplinkTrace == nil ? String(network.uplinkBitsPerSecond) : absent,
            network.downlinkTrace.map { ServeConditions.jsonString($0.path) } ?? absent,
            network.uplinkTrace.map { ServeConditions.jsonString($0.path) } ?? absent,
            network.recordingStart.map(ms) ?? absent,
            ms(delay.lowerBound), ms(delay.upperBound - delay.lowerBound), ms(network.uplinkDelay), number(network.loss),
            number(network.uplinkLoss), String(network.bufferPackets), String(network.initialWindowSegments),
            String(network.maxSegmentBytes), String(network.slowStartAfterIdle), String(network.cubicPausesWhenIdle),
            String(network.recoveryTimeoutKeepsThreshold), String(network.tls),
            ServeConditions.jsonString(network.http.rawValue), String(network.connectionsPerHost), String(network.maxConcurrentStreams),
            String(network.streamWindowBytes), String(network.connectionWindowBytes), ms(network.idleTimeout),
            ms(network.retryTimeout), String(network.maxRetries),
        ]
        return Array(zip(fields, values)).filter { !$0.1.isEmpty }.map { (key: $0.0, value: $0.1) }
    }

    /// A probability as JSON: `0`, `0.1` (Swift's shortest form that reads back exactly).
    static func number(_ value: Double) -> String { value == 0 ? "0" : String(value) }

    /// `network` as a network file: one field per line, in `fields`' order. Reading it back gives
    /// `network`.
    public static func json(_ network: NetworkProfile) -> String {
        "{\n" + values(network).map { "  \(ServeConditions.jsonString($0.key)): \($0.value)" }.joined(separator: ",\n") + "\n}\n"
    }

    /// The network `text` (the contents of the file `source`) describes; the fields it leaves
    /// out keep the values of the preset it names, else Wi-Fi's. Refused in one line
    /// naming the file and field: not JSON (with the line, `JSONDocumentCheck`), not an object,
    /// no name, an unknown field, a value out of its range.
    public static func network(json data: Data, source: String) throws -> NetworkProfile {
        guard let object = try JSONDocumentCheck.parse(data, source: source) as? [String: Any] else {
            throw InputError(source: source, "expected a network as a JSON object (bench profiles --network wifi prints one)")
        }
        guard object["name"] != nil else { throw InputError(source: source, field: "name", "expected the network's name") }
        let folder = source.contains("/") ? String(source[..<source.lastIndex(of: "/")!]) : ""
        return try ServeConditions.Reader(source: source, folder: folder.isEmpty && source.hasPrefix("/") ? "/" : folder).network(object, base: nil)
    }

    /// The preset named `value`, else the network file at that path; `option` names the option
    /// for errors.
    public static func resolve(_ value: String, option: String) throws -> NetworkProfile {
        if let preset = try NetworkProfile.preset(named: value, source: option) { return preset }
        guard let data = try ReadableFile.contents(at: value) else {
            throw InputError(source: option, "expected a network preset (\(NetworkProfile.presetNames.joined(separator: ", "))) or a readable network file, found \(InputError.quote(value))")
        }
        return try network(json: data, source: value)
    }
}
