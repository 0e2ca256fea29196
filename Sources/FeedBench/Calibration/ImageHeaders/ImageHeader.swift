/// The image file formats whose dimensions `ImageHeader` reads. The raw value is the media
/// subtype: `image/jpeg` is `.jpeg`.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp
}

/// An image's format and size in pixels, read from the first bytes of its file without decoding
/// it: how calibration learns the dimensions of the images in a capture's response bodies.
public struct ImageHeader: Sendable, Equatable {
    public var format: ImageFormat
    /// The size in pixels the file stores (a JPEG's EXIF orientation may show it turned).
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header of the JPEG, PNG, GIF or WebP file that `bytes` starts with, told apart by its
    /// signature. `nil` for anything else: another format, a file cut off before the record
    /// that holds its dimensions is whole, a record whose lengths disagree, a side of 0. Every
    /// read is checked against the end of `bytes`, so no input traps or is read past its end.
    /// O(1) for PNG, GIF and WebP, O(segments before the frame header) for JPEG; a collection
    /// without contiguous storage is copied first, O(n).
    public static func read(_ bytes: some Collection<UInt8>) -> ImageHeader? {
        if let header = bytes.withContiguousStorageIfAvailable({ read(ImageBytes(buffer: $0)) }) { return header }
        return Array(bytes).withUnsafeBufferPointer { read(ImageBytes(buffer: $0)) }
    }

    static func read(_ bytes: ImageBytes) -> ImageHeader? {
        jpeg(bytes) ?? png(bytes) ?? gif(bytes) ?? webp(bytes)
    }

    /// A header of `width` × `height` pixels, `nil` when a side is 0.
    static func sized(_ format: ImageFormat, _ width: Int, _ height: Int) -> ImageHeader? {
        width > 0 && height > 0 ? ImageHeader(format: format, width: width, height: height) : nil
    }

    // MARK: PNG and GIF: the dimensions at fixed offsets

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG: the signature, then the IHDR chunk, which must come first: length 13, type, width
    /// and height (big-endian, at most 2³¹ − 1), then five one-byte fields.
    static func png(_ bytes: ImageBytes) -> ImageHeader? {
        guard bytes.matches(pngSignature, at: 0), bytes.bigEndian(4, at: 8) == 13, bytes.matches(Array("IHDR".utf8), at: 12),
              bytes.has(13, at: 16), let width = bytes.bigEndian(4, at: 16), let height = bytes.bigEndian(4, at: 20),
              width <= Int(Int32.max), height <= Int(Int32.max)
        else { return nil }
        return sized(.png, width, height)
    }

    /// A GIF: `GIF87a` or `GIF89a`, then the logical screen descriptor: width and height
    /// (little-endian), then three one-byte fields.
    static func gif(_ bytes: ImageBytes) -> ImageHeader? {
        guard bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0),
              bytes.has(7, at: 6), let width = bytes.littleEndian(2, at: 6), let height = bytes.littleEndian(2, at: 8)
        else { return nil }
        return sized(.gif, width, height)
    }
}

/// An image file's bytes read at offsets, each read checked against the end: a read that does
/// not fit gives `nil`, whatever the offset.
struct ImageBytes {
    let buffer: UnsafeBufferPointer<UInt8>

    /// Whether the `count` bytes from `offset` are all inside. O(1).
    func has(_ count: Int, at offset: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= buffer.count - count
    }

    /// The byte at `offset`. O(1).
    func byte(at offset: Int) -> UInt8? {
        has(1, at: offset) ? buffer[offset] : nil
    }

    /// Whether `expected` is at `offset`. O(expected).
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        has(expected.count, at: offset) && expected.indices.allSatisfy { buffer[offset + $0] == expected[$0] }
    }

    /// The unsigned `width`-byte (1…4) integer at `offset`, most significant byte first. O(width).
    func bigEndian(_ width: Int, at offset: Int) -> Int? {
        guard has(width, at: offset) else { return nil }
        return (0..<width).reduce(0) { $0 << 8 | Int(buffer[offset + $1]) }
    }

    /// The unsigned `width`-byte (1…4) integer at `offset`, least significant byte first. O(width).
    func littleEndian(_ width: Int, at offset: Int) -> Int? {
        guard has(width, at: offset) else { return nil }
        return (0..<width).reversed().reduce(0) { $0 << 8 | Int(buffer[offset + $1]) }
    }
}
