/// The width a feed asks its image server for (`--image-width`): the original (`full`), the
/// cell's pixels on the device the run simulates (`cell`: the cell's points × the screen's
/// scale), or a number of pixels. The server resizes down only, keeping the aspect ratio
/// (`ImageDescriptor.served(width:)`); an image narrower than the width comes whole.
public enum ImageWidth: Sendable, Hashable, CustomStringConvertible {
    case full
    case cell
    case pixels(Int)

    /// The widest a request may name.
    public static let maximum = 20_000

    /// Parses `full`, `cell` or a whole number of pixels from 1 to `maximum`.
    public static func parse(_ text: String, source: String) throws -> ImageWidth {
        switch text {
        case "full": return .full
        case "cell": return .cell
        default:
            guard let pixels = Int(text), (1...maximum).contains(pixels) else {
                throw InputError(source: source, "expected full, cell or a width in pixels from 1 to \(maximum), found \(InputError.quote(text))")
            }
            return .pixels(pixels)
        }
    }

    /// `full`, `cell` or the pixels: as `--image-width` takes it.
    public var description: String {
        switch self {
        case .full: "full"
        case .cell: "cell"
        case let .pixels(pixels): String(pixels)
        }
    }

    /// The pixels asked for on `profile`; `nil`: the original. O(1).
    public func pixels(on profile: DeviceProfile) -> Int? {
        switch self {
        case .full: nil
        case .cell: profile.cellPixels
        case let .pixels(pixels): pixels
        }
    }

    /// The query parameter an image's URL asks its width with, as a resizing CDN takes it.
    public static let queryName = "w"

    /// The path `bench serve` answers image `id` at, asked `pixels` wide: `/images/12.jpg`, or
    /// `/images/12.jpg?w=750`. O(1).
    public static func imagePath(_ id: UInt64, pixels: Int?) -> String {
        "/images/\(id).jpg" + (pixels.map { "?\(queryName)=\($0)" } ?? "")
    }

    /// The width's tag in the `scenario` column: `;width=750` for a width asked in pixels
    /// (`cell` written as the pixels it came to), nothing for `full`.
    static func scenarioTag(_ pixels: Int?) -> String { pixels.map { ";\(tagPrefix)\($0)" } ?? "" }

    /// How a `scenario` cell's width part starts.
    static let tagPrefix = "width="

    /// `scenario` without its `;width=N` tag (the rest of what the scenario says). O(length).
    public static func removingTag(from scenario: String) -> String {
        scenario.split(separator: ";", omittingEmptySubsequences: false).filter { !$0.hasPrefix(tagPrefix) }.joined(separator: ";")
    }

    /// The pixels a `scenario` cell's `;width=N` tag asks for; `nil`: none (the original). O(length).
    public static func pixels(inScenario scenario: String) -> Int? {
        for part in scenario.split(separator: ";") where part.hasPrefix(tagPrefix) {
            return Int(part.dropFirst(tagPrefix.count))
        }
        return nil
    }
}

/// How a resize on the server changes an image's download: encoded bytes follow pixels × bits
/// per pixel, and a JPEG's bits per pixel rise as its pixel count falls. The figures are the
/// median bits per pixel of the JPEGs in HTTP Archive's 2024 crawl (desktop pages) by pixel
/// count, in 0.1-megapixel bands from 0 to 0.8 MP: 3.07, 2.07, 1.95, 1.84, 1.80, 1.71, 1.52 and
/// 1.56 (the Web Almanac 2024 Media chapter's data, split by size in the WebM project's
/// codec-compare study "Bits per pixel of Internet images"; docs/images.md). Between the bands'
/// centres the rate is interpolated linearly; below the first and above the last it is held.
public enum ResizedBytes {
    /// (pixels at a band's centre, its median bits per pixel), by pixels.
    static let medianBitsPerPixel: [(pixels: Double, bitsPerPixel: Double)] = [
        (50_000, 3.07), (150_000, 2.07), (250_000, 1.95), (350_000, 1.84),
        (450_000, 1.80), (550_000, 1.71), (650_000, 1.52), (750_000, 1.56),
    ]

    /// The median bits per pixel of a JPEG of `pixels` pixels. O(bands).
    public static func bitsPerPixel(pixels: Double) -> Double {
        let table = medianBitsPerPixel
        guard pixels > table[0].pixels else { return table[0].bitsPerPixel }
        for (low, high) in zip(table, table.dropFirst()) where pixels <= high.pixels {
            let fraction = (pixels - low.pixels) / (high.pixels - low.pixels)
            return low.bitsPerPixel + (high.bitsPerPixel - low.bitsPerPixel) * fraction
        }
        return table[table.count - 1].bitsPerPixel
    }

    /// The bytes of an image of `bytes` at `from` pixels once resized to `to` pixels: `bytes` ×
    /// (to × bpp(to)) / (from × bpp(from)), rounded, at least 1. Never more than `bytes` for
    /// `to` ≤ `from` (pixels × bpp rises with pixels over the table). O(bands).
    public static func resized(_ bytes: Int64, from: Int, to: Int) -> Int64 {
        guard to < from else { return bytes }
        let ratio = Double(to) * bitsPerPixel(pixels: Double(to)) / (Double(from) * bitsPerPixel(pixels: Double(from)))
        return max(1, min(bytes, Int64((Double(bytes) * ratio).rounded())))
    }
}

extension ImageDescriptor {
    /// The image as a server sends it when asked for `width` pixels (`nil`: the original): no
    /// wider than that, the height in proportion (rounded, at least 1 pixel), the bytes by
    /// `ResizedBytes` but never fewer than the smallest JPEG of that size holds (its headers and
    /// a bit a block: `SyntheticJPEG.minimumBytes`, what `bench serve` sends) nor more than the
    /// original's. An image already that narrow comes unchanged. O(1).
    public func served(width: Int?) -> ImageDescriptor {
        guard let width, width < pixelWidth else { return self }
        let height = max(1, (pixelHeight * width + pixelWidth / 2) / pixelWidth)
        let bytes = ResizedBytes.resized(encodedBytes, from: pixelWidth * pixelHeight, to: width * height)
        let smallest = Int64(SyntheticJPEG.minimumBytes(width: width, height: height))
        return ImageDescriptor(url: url, pixelWidth: width, pixelHeight: height, encodedBytes: min(encodedBytes, max(bytes, smallest)))
    }
}
