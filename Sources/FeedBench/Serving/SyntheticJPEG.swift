/// A valid baseline JPEG of a given size in pixels whose file is exactly a given number of
/// bytes: what `bench serve` sends for a catalogue image, so a real decoder opens it at the
/// descriptor's dimensions and the network carries the modelled bytes.
///
/// The image is one grey component (every block's DC difference 0, every block ended at once),
/// so its entropy-coded data costs two bits a block; the rest of the size is comment segments
/// (`COM`, up to 65,533 bytes of data each) before the scan. Any byte range is computed from its
/// offset without building the file: a response streams it in O(1) memory. The smallest file
/// for W × H pixels is `minimumBytes(width:height:)` (13 KB for 2000 × 2000).
public struct SyntheticJPEG: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// The file's length in bytes.
    public let byteCount: Int

    /// One stretch of the file: literal bytes, or `count` copies of `fill`.
    enum Part: Sendable, Hashable {
        case bytes([UInt8])
        case fill(UInt8, count: Int)

        var count: Int {
            switch self {
            case let .bytes(bytes): bytes.count
            case let .fill(_, count): count
            }
        }
    }

    let parts: [Part]
    /// Where each part starts.
    let offsets: [Int]

    /// The file for `width` × `height` pixels of exactly `byteCount` bytes, or `nil` when
    /// `byteCount` is below `minimumBytes` or a side is outside 1…65,535.
    public init?(width: Int, height: Int, byteCount: Int) {
        guard (1...65_535).contains(width), (1...65_535).contains(height),
              byteCount >= Self.minimumBytes(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        self.byteCount = byteCount
        let scanBits = Self.blocks(width: width, height: height) * 2
        var parts: [Part] = [.bytes(Self.header(width: width, height: height))]
        // Comment segments take what the size leaves: n segments of 4 bytes of marker and length
        // plus their data.
        let padding = byteCount - Self.fixedBytes - (scanBits + 7) / 8
        let segments = max(1, (padding + Self.maxComment + 3) / (Self.maxComment + 4))
        var data = padding - 4 * segments
        for _ in 0..<segments {
            let length = min(data, Self.maxComment)
            data -= length
            parts.append(.bytes([0xFF, 0xFE, UInt8((length + 2) >> 8), UInt8((length + 2) & 0xFF)]))
            if length > 0 { parts.append(.fill(0x20, count: length)) }
        }
        parts.append(.bytes(Self.startOfScan))
        // Two zero bits a block; the last byte's unused bits are ones, as the standard pads.
        if scanBits / 8 > 0 { parts.append(.fill(0x00, count: scanBits / 8)) }
        if scanBits % 8 != 0 { parts.append(.bytes([UInt8((1 << (8 - scanBits % 8)) - 1)])) }
        parts.append(.bytes([0xFF, 0xD9]))
        self.parts = parts
        var offsets: [Int] = []
        var offset = 0
        for part in parts {
            offsets.append(offset)
            offset += part.count
        }
        self.offsets = offsets
        assert(offset == byteCount, "SyntheticJPEG: parts add up to \(offset), not \(byteCount)")
    }

    /// The smallest file for `width` × `height` pixels: headers, one empty comment and the scan.
    public static func minimumBytes(width: Int, height: Int) -> Int {
        fixedBytes + 4 + (blocks(width: width, height: height) * 2 + 7) / 8
    }

    /// The bytes at `range` (clamped to the file). O(parts + range.count).
    public func bytes(in range: Range<Int>) -> [UInt8] {
        let range = range.clamped(to: 0..<byteCount)
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        for (index, part) in parts.enumerated() {
            let start = offsets[index]
            let overlap = range.clamped(to: start..<(start + part.count))
            guard !overlap.isEmpty else { continue }
            switch part {
            case let .bytes(bytes): result.append(contentsOf: bytes[(overlap.lowerBound - start)..<(overlap.upperBound - start)])
            // Array(repeating:) is one fill in the (optimised) standard library, also in debug
            // builds, where a lazy repeatElement costs a call per byte.
            case let .fill(value, _): result.append(contentsOf: [UInt8](repeating: value, count: overlap.count))
            }
        }
        return result
    }

    /// The whole file (tests and small images; a server streams `bytes(in:)`).
    public var data: [UInt8] { bytes(in: 0..<byteCount) }

    // MARK: Layout

    static let maxComment = 65_533

    /// 8 × 8 blocks of the one component (one block per MCU).
    static func blocks(width: Int, height: Int) -> Int { ((width + 7) / 8) * ((height + 7) / 8) }

    /// SOI, JFIF, the quantisation table, the frame, both Huffman tables; then the scan header
    /// and EOI.
    static let fixedBytes = 2 + 18 + 69 + 13 + 22 + 22 + startOfScan.count + 2

    static func header(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        // APP0 JFIF 1.01, no units, 1:1, no thumbnail.
        bytes += [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        // DQT: table 0, 8-bit, every coefficient 1.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        // SOF0: 8-bit samples, height, width, one component (id 1, 1 × 1 sampling, table 0).
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                  0x01, 0x01, 0x11, 0x00]
        // DHT: DC table 0 and AC table 0, each one code of one bit ("0") for symbol 0 — a DC
        // difference of 0, and end of block.
        for tableClass: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, tableClass, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        return bytes
    }

    /// SOS: one component (id 1, tables 0/0), spectral 0…63, no approximation.
    static let startOfScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
}
