import Foundation

/// Zipf's law over ranks `0..<count`: rank r is drawn with probability proportional to
/// 1 / (r + 1)^alpha. The popularity model of key traces and image feeds.
///
/// Sampling inverts a precomputed cumulative table by binary search: exact, O(log n) per draw,
/// O(n) memory and set-up.
public struct ZipfDistribution: Sendable {
    public let count: Int
    public let alpha: Double
    let cumulative: [Double]

    public init(count: Int, alpha: Double) {
        precondition(count > 0, "ZipfDistribution: count must be positive")
        precondition(alpha >= 0 && alpha.isFinite, "ZipfDistribution: alpha must be finite and non-negative")
        self.count = count
        self.alpha = alpha
        var running = 0.0
        var table = [Double]()
        table.reserveCapacity(count)
        for rank in 1...count {
            running += 1 / pow(Double(rank), alpha)
            table.append(running)
        }
        cumulative = table.map { $0 / running }
    }

    /// A rank in `0..<count`. O(log count).
    public func sample(using generator: inout SeededGenerator) -> Int {
        let u = generator.nextUnit()
        var low = 0
        var high = count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > u { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
