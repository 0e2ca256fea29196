/// How large a feed's images are: their pixel dimensions and their encoded (download) bytes.
///
/// One image is drawn in three steps:
/// 1. an aspect ratio from `aspectRatios`, with probability proportional to its weight;
/// 2. the long side, uniform over the integers that keep both sides in `sides` for that ratio
///    (the short side is the long side scaled by the ratio, rounded to the nearest pixel);
/// 3. the bits per pixel, uniform in `bitsPerPixel`: encoded bytes = pixels × bpp / 8, rounded,
///    then clamped to `encodedBytes`. Bytes therefore grow with pixel count, with a ±33 % spread
///    at a given size under `photoFeed`, as a JPEG's size varies with its content.
///
/// Each image takes exactly four draws from the generator. O(number of ratios) per image.
public struct ImageSizeModel: Sendable, Hashable {
    /// A width:height shape and how often it occurs (weights need not sum to 1).
    public struct AspectRatio: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public var weight: Double

        public init(width: Int, height: Int, weight: Double) {
            self.width = width
            self.height = height
            self.weight = weight
        }
    }

    public let aspectRatios: [AspectRatio]
    /// The allowed length of either side, in pixels.
    public let sides: ClosedRange<Int>
    /// The compression level: encoded bits per pixel.
    public let bitsPerPixel: ClosedRange<Double>
    /// The allowed encoded size, in bytes.
    public let encodedBytes: ClosedRange<Int64>

    /// A model; every ratio must fit `sides` (its long side at the maximum keeps its short side
    /// at or above the minimum) and every weight must be positive.
    public init(aspectRatios: [AspectRatio], sides: ClosedRange<Int>, bitsPerPixel: ClosedRange<Double>,
                encodedBytes: ClosedRange<Int64>) {
        precondition(!aspectRatios.isEmpty, "ImageSizeModel: no aspect ratios")
        precondition(sides.lowerBound > 0 && bitsPerPixel.lowerBound > 0 && encodedBytes.lowerBound > 0,
                     "ImageSizeModel: sizes must be positive")
        for ratio in aspectRatios {
            precondition(ratio.width > 0 && ratio.height > 0 && ratio.weight > 0,
                         "ImageSizeModel: ratio sides and weights must be positive")
            precondition(ImageSizeModel.longSides(for: ratio, within: sides) != nil,
                         "ImageSizeModel: \(ratio.width):\(ratio.height) cannot fit sides \(sides)")
        }
        self.aspectRatios = aspectRatios
        self.sides = sides
        self.bitsPerPixel = bitsPerPixel
        self.encodedBytes = encodedBytes
    }

    /// A photo feed (Instagram-, Pinterest- or cat-API-like) of CDN-served JPEGs:
    /// - shapes (width:height) 4:5 35 %, 1:1 25 %, 3:4 10 %, 4:3 10 %, 16:9 10 %, 9:16 10 %:
    ///   portrait and square crops dominate feeds, camera-native 3:4 / 4:3 and video-frame
    ///   16:9 / 9:16 make up the rest (a judgement, not a measurement);
    /// - 500–2000 px per side;
    /// - 0.8–1.6 bits per pixel (mean 1.2, JPEG quality ≈ 70–80 on photos), clamped to
    ///   40–600 KB (1 KB = 1,000 bytes). A 1080 × 1350 image averages ≈ 220 KB; the largest
    ///   images sit at the 600 KB cap, the smallest at the 40 KB floor.
    public static let photoFeed = ImageSizeModel(
        aspectRatios: [
            AspectRatio(width: 4, height: 5, weight: 0.35),
            AspectRatio(width: 1, height: 1, weight: 0.25),
            AspectRatio(width: 3, height: 4, weight: 0.10),
            AspectRatio(width: 4, height: 3, weight: 0.10),
            AspectRatio(width: 16, height: 9, weight: 0.10),
            AspectRatio(width: 9, height: 16, weight: 0.10),
        ],
        sides: 500...2000,
        bitsPerPixel: 0.8...1.6,
        encodedBytes: 40_000...600_000
    )

    /// The long sides that keep both sides of `ratio` within `sides`, or `nil` if none does.
    static func longSides(for ratio: AspectRatio, within sides: ClosedRange<Int>) -> ClosedRange<Int>? {
        let long = max(ratio.width, ratio.height), short = min(ratio.width, ratio.height)
        // short side = round(L × short / long) ≥ minimum whenever L × short ≥ minimum × long.
        let lowest = max(sides.lowerBound, (sides.lowerBound * long + short - 1) / short)
        return lowest <= sides.upperBound ? lowest...sides.upperBound : nil
    }

    /// Draws the size of image `url`. Four draws; O(number of ratios).
    public func sample(url: UInt64, using generator: inout SeededGenerator) -> ImageDescriptor {
        let total = aspectRatios.reduce(0) { $0 + $1.weight }
        var pick = generator.nextUnit() * total
        var ratio = aspectRatios[aspectRatios.count - 1]
        for candidate in aspectRatios {
            if pick < candidate.weight { ratio = candidate; break }
            pick -= candidate.weight
        }
        let range = ImageSizeModel.longSides(for: ratio, within: sides)!
        let longSide = Int(generator.next(in: Int64(range.lowerBound)...Int64(range.upperBound)))
        let long = max(ratio.width, ratio.height), short = min(ratio.width, ratio.height)
        let shortSide = (longSide * short + long / 2) / long
        let (width, height) = ratio.width >= ratio.height ? (longSide, shortSide) : (shortSide, longSide)
        let bpp = bitsPerPixel.lowerBound + generator.nextUnit() * (bitsPerPixel.upperBound - bitsPerPixel.lowerBound)
        let bytes = Int64((Double(width * height) * bpp / 8).rounded())
        return ImageDescriptor(url: url, pixelWidth: width, pixelHeight: height,
                               encodedBytes: min(max(bytes, encodedBytes.lowerBound), encodedBytes.upperBound))
    }
}
