/// `bench calibrate`'s printed summary: what the captures held, each fitted model with the
/// sample it came from and how far the fit is from it, and what was assumed.
public struct CalibrationSummary {
    public let calibration: Calibration
    public let workload: Workload

    public init(calibration: Calibration, workload: Workload) {
        self.calibration = calibration
        self.workload = workload
    }

    /// A few lines, none longer than 100 columns (a host name is cut to 40). O(requests log requests).
    public var text: String {
        let requests = calibration.requests
        let fit = workload.fit
        var lines = ["captures: \(fit.requests) requests: \(fit.apiCalls) API calls, \(fit.imageDownloads) image downloads, "
                     + "\(requests.filter { $0.kind == .other }.count) other"]
        let answered = calibration.apiLatencies.filter { $0 > 0 }
        if answered.isEmpty, !calibration.apiLatencies.isEmpty, workload.api.latency == .fixed(0) {
            lines.append("api latency: \(calibration.apiLatencies.count) answered, the server taking no time of its own; fit: fixed at 0 ms")
        } else if answered.isEmpty {
            lines.append("api latency: no answered call; the built-in model is kept")
        } else {
            let sample = EmpiricalQuantiles(answered)
            lines.append("api latency: \(answered.count) answered; p50 \(Self.ms(sample.quantile(0.5))), p99 \(Self.ms(sample.quantile(0.99)))")
            switch workload.api.latency {
            case let .logNormal(mean, p99):
                let meanMs = Double(mean) / 1e6, p99Ms = Double(p99) / 1e6
                var line = "  fit: log-normal mean \(Self.ms(meanMs)) (\(Self.error(meanMs, sample.mean))), "
                    + "p99 \(Self.ms(p99Ms)) (\(Self.error(p99Ms, sample.quantile(0.99))))"
                if let ks = fit.apiLatencyKS { line += ", KS \(FixedPoint.decimal(ks, decimals: 3))" }
                lines.append(line)
            case let .fixed(value): lines.append("  fit: fixed at the median, \(Self.ms(Double(value) / 1e6)) (no log-normal fits)")
            case .uniform: break
            }
        }
        lines.append("api faults: \(fit.apiFailures) of \(fit.apiCalls) failed (5xx), \(fit.apiRateLimited) rate-limited (429: counted, not modelled)")
        if let items = fit.itemsPerPage { lines.append("  pages: \(items) items (the simulated API serves \(FeedAPIConfiguration.pageSize))") }
        let bytes = workload.images.byteQuantiles
        var images = "images: bytes p50 \(Self.bytes(bytes[50])), p90 \(Self.bytes(bytes[90])), max \(Self.bytes(bytes[100]))"
        if fit.imageDownloads == 0 { images += " (assumed: the built-in photo feed)" }
        lines.append(images)
        if let ks = fit.imageBytesKS, let logNormal = LogNormalFit(calibration.downloadBytes), logNormal.p99 < 1e15 {
            lines.append("  fit: log-normal mean \(Self.bytes(Int64(logNormal.mean))), p99 \(Self.bytes(Int64(logNormal.p99))), "
                         + "KS \(FixedPoint.decimal(ks, decimals: 3)) (runs draw from the table)")
        }
        let top = workload.images.dimensions[0]
        lines.append("  dimensions: \(workload.images.dimensions.count) sizes from \(fit.dimensionsFrom), most often \(top.width)×\(top.height)")
        let network = workload.network
        let (low, high) = (Double(2 * network.oneWayDelay.lowerBound) / 1e6, Double(2 * network.oneWayDelay.upperBound) / 1e6)
        let host = fit.host.isEmpty ? "no host" : fit.host.count > 40 ? String(fit.host.prefix(39)) + "…" : fit.host
        lines.append("network: \(host); round trip \(FixedPoint.decimal(low, decimals: 1))–\(Self.ms(high)) (from \(fit.roundTripFrom))")
        lines.append("  \(FixedPoint.decimal(Double(network.bitsPerSecond) / 1e6, decimals: 1)) Mbit/s (from \(fit.bandwidthFrom)), "
                     + "\(network.connectionsPerHost) connections at once; loss not measured (0)")
        // The other hosts with the most bytes, each fitted the same way, for comparison.
        var bytesByHost: [String: Int] = [:]
        for request in requests where request.status != 0 { bytesByHost[request.host, default: 0] += request.bodyBytes ?? 0 }
        let others = bytesByHost.filter { $0.key != fit.host && $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(3)
        for (other, bytes) in others {
            var scratch = CalibrationFit()
            let theirs = calibration.fitNetwork(host: other, into: &scratch)
            let name = other.count > 24 ? String(other.prefix(23)) + "…" : other
            let delay = theirs.oneWayDelay
            lines.append("  also \(name): \(Self.bytes(Int64(bytes))), round trip \(FixedPoint.decimal(Double(2 * delay.lowerBound) / 1e6, decimals: 1))–"
                         + "\(Self.ms(Double(2 * delay.upperBound) / 1e6)) (\(scratch.roundTripFrom)), "
                         + "\(FixedPoint.decimal(Double(theirs.bitsPerSecond) / 1e6, decimals: 1)) Mbit/s (\(scratch.bandwidthFrom))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func ms(_ value: Double) -> String {
        guard value.isFinite, value >= 0, value < 1e15 else { return "(out of range)" }
        return FixedPoint.decimal(value, decimals: 1) + " ms"
    }

    /// Bytes in B, KB or MB (1 KB = 1,000 bytes).
    static func bytes(_ value: Int64) -> String {
        switch value {
        case ..<10_000: "\(value) B"
        case ..<1_000_000: FixedPoint.decimal(Double(value) / 1e3, decimals: 1) + " KB"
        default: FixedPoint.decimal(Double(value) / 1e6, decimals: 1) + " MB"
        }
    }

    /// The fit's value against the sample's, as a signed percentage.
    static func error(_ fitted: Double, _ measured: Double) -> String {
        guard measured > 0 else { return "n/a" }
        let percent = (fitted / measured - 1) * 100
        guard percent.isFinite, abs(percent) < 1e12 else { return "n/a" }
        // FixedPoint writes magnitudes; the sign is ours.
        return (percent < 0 ? "-" : "+") + FixedPoint.decimal(abs(percent), decimals: 1) + " %"
    }
}
