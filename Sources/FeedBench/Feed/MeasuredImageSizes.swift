/// Image sizes as a capture measured them (`bench calibrate`, a workload's `images`): encoded
/// bytes drawn by inverse transform from a quantile table, pixel dimensions drawn from the
/// capture's (width, height) pairs in proportion to how often each was seen.
///
/// Bytes and dimensions are drawn independently (the table keeps each distribution, not their
/// joint), so a small file may get large dimensions; the decoded cost follows the dimensions,
/// the download the bytes. Two draws per image; O(log dimensions) per image after an O(n) setup.
public struct MeasuredImageSizes: Sendable, Hashable {
    /// A width × height seen `count` times.
    public struct Dimensions: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public var count: Int

        public init(width: Int, height: Int, count: Int) {
            self.width = width
            self.height = height
            self.count = count
        }
    }

    /// Encoded bytes at probabilities 0, 1/n, 2/n, …, 1: at least two values, positive and
    /// non-decreasing.
    public let byteQuantiles: [Int64]
    /// At least one pair; sides and counts positive.
    public let dimensions: [Dimensions]
    /// Running totals of the counts, for the weighted draw.
    let cumulativeCounts: [Int]

    /// The largest side and the largest encoded size a workload may give.
    public static let maximumSide = 20_000
    public static let maximumBytes: Int64 = 1 << 30

    /// Checks what `sample` relies on; `source` names the file in refusals.
    public init(byteQuantiles: [Int64], dimensions: [Dimensions], source: String) throws {
        guard byteQuantiles.count >= 2 else {
            throw InputError(source: source, field: "images.bytesQuantiles", "expected at least 2 sizes (the minimum and the maximum), found \(byteQuantiles.count)")
        }
        for (i, bytes) in byteQuantiles.enumerated() {
            guard (1...Self.maximumBytes).contains(bytes), i == 0 || bytes >= byteQuantiles[i - 1] else {
                throw InputError(source: source, field: "images.bytesQuantiles[\(i)]",
                                 "expected non-decreasing sizes in 1…\(Self.maximumBytes) bytes, found \(bytes)")
            }
        }
        guard !dimensions.isEmpty else { throw InputError(source: source, field: "images.dimensions", "expected at least one [width, height, count]") }
        for (i, pair) in dimensions.enumerated() {
            guard (1...Self.maximumSide).contains(pair.width), (1...Self.maximumSide).contains(pair.height), (1...1_000_000_000).contains(pair.count) else {
                throw InputError(source: source, field: "images.dimensions[\(i)]",
                                 "expected [width, height, count] with sides in 1…\(Self.maximumSide) and a count in 1…1000000000, found [\(pair.width), \(pair.height), \(pair.count)]")
            }
        }
        self.byteQuantiles = byteQuantiles
        self.dimensions = dimensions
        var total = 0
        cumulativeCounts = dimensions.map { total += $0.count; return total }
    }

    /// Draws image `url`'s size: bytes by linear interpolation between the two quantiles
    /// around a uniform draw, then dimensions by their counts. Two draws.
    public func sample(url: UInt64, using generator: inout SeededGenerator) -> ImageDescriptor {
        let position = generator.nextUnit() * Double(byteQuantiles.count - 1)
        let lower = min(Int(position), byteQuantiles.count - 2)
        let fraction = position - Double(lower)
        let bytes = Double(byteQuantiles[lower]) + Double(byteQuantiles[lower + 1] - byteQuantiles[lower]) * fraction
        let pick = Int(generator.next(below: UInt64(cumulativeCounts[cumulativeCounts.count - 1])))
        var low = 0, high = cumulativeCounts.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulativeCounts[middle] > pick { high = middle } else { low = middle + 1 }
        }
        return ImageDescriptor(url: url, pixelWidth: dimensions[low].width, pixelHeight: dimensions[low].height,
                               encodedBytes: Int64(bytes.rounded()))
    }
}

/// Where a catalogue's image sizes come from: the built-in parametric model, or a capture's
/// measurements (a workload from `bench calibrate`).
public enum ImageSizes: Sendable, Hashable {
    case model(ImageSizeModel)
    case measured(MeasuredImageSizes)

    /// The built-in photo feed (`ImageSizeModel.photoFeed`).
    public static let photoFeed = ImageSizes.model(.photoFeed)

    /// Draws image `url`'s size from the model or the measurements.
    public func sample(url: UInt64, using generator: inout SeededGenerator) -> ImageDescriptor {
        switch self {
        case let .model(model): return model.sample(url: url, using: &generator)
        case let .measured(measured): return measured.sample(url: url, using: &generator)
        }
    }
}
