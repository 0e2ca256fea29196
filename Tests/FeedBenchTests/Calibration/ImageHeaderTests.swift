import Testing
@testable import FeedBench

/// Image dimensions from a file's first bytes: JPEG, PNG, GIF and WebP headers are read at their
/// sizes, and anything cut off, malformed or random gives `nil` without trapping.
@Suite struct ImageHeaderTests {
    // MARK: Hand-built headers, each ending where the record holding the size ends

    static func bigEndian(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func littleEndian(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// The PNG signature and IHDR chunk (8-bit RGBA; the CRC after it is not read).
    static func png(width: Int, height: Int, chunk: String = "IHDR") -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + Array(chunk.utf8)
            + bigEndian(width, 4) + bigEndian(height, 4) + [8, 6, 0, 0, 0]
    }

    /// The GIF signature and logical screen descriptor (global colour table of 256, no aspect).
    static func gif(width: Int, height: Int, version: String = "89a") -> [UInt8] {
        Array("GIF\(version)".utf8) + littleEndian(width, 2) + littleEndian(height, 2) + [0xF7, 0, 0]
    }

    /// A RIFF WebP file header and a first chunk of type `chunk` holding `data`.
    static func webp(_ chunk: String, _ data: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + littleEndian(12 + data.count, 4) + Array("WEBP".utf8)
            + Array(chunk.utf8) + littleEndian(data.count, 4) + data
    }

    /// A lossy key frame's tag (key frame, version 0, shown, first partition of 0x19F bytes),
    /// start code and 14-bit sizes, with `scale` in the top 2 bits of each.
    static func vp8(width: Int, height: Int, scale: Int = 0) -> [UInt8] {
        webp("VP8 ", [0xF0, 0x33, 0x00, 0x9D, 0x01, 0x2A] + littleEndian(scale << 14 | width, 2) + littleEndian(scale << 14 | height, 2))
    }

    /// A lossless stream's signature and its 14-bit width − 1 and height − 1, no alpha,
    /// version `version`.
    static func vp8l(width: Int, height: Int, version: Int = 0) -> [UInt8] {
        webp("VP8L", [0x2F] + littleEndian((width - 1) | (height - 1) << 14 | version << 29, 4))
    }

    /// The extended format's flags (alpha), reserved bytes and 24-bit canvas width − 1 and
    /// height − 1.
    static func vp8x(width: Int, height: Int) -> [UInt8] {
        webp("VP8X", [0x10, 0, 0, 0] + littleEndian(width - 1, 3) + littleEndian(height - 1, 3))
    }

    static let handBuilt: [(bytes: [UInt8], header: ImageHeader)] = [
        (png(width: 1, height: 1), ImageHeader(format: .png, width: 1, height: 1)),
        (png(width: 640, height: 480), ImageHeader(format: .png, width: 640, height: 480)),
        (png(width: Int(Int32.max), height: 3), ImageHeader(format: .png, width: Int(Int32.max), height: 3)),
        (gif(width: 1, height: 1), ImageHeader(format: .gif, width: 1, height: 1)),
        (gif(width: 500, height: 281, version: "87a"), ImageHeader(format: .gif, width: 500, height: 281)),
        (gif(width: 65_535, height: 65_535), ImageHeader(format: .gif, width: 65_535, height: 65_535)),
        (vp8(width: 1, height: 1), ImageHeader(format: .webp, width: 1, height: 1)),
        (vp8(width: 1080, height: 1350, scale: 3), ImageHeader(format: .webp, width: 1080, height: 1350)),
        (vp8(width: 16_383, height: 16_383), ImageHeader(format: .webp, width: 16_383, height: 16_383)),
        (vp8l(width: 1, height: 1), ImageHeader(format: .webp, width: 1, height: 1)),
        (vp8l(width: 333, height: 77), ImageHeader(format: .webp, width: 333, height: 77)),
        (vp8l(width: 16_384, height: 16_384), ImageHeader(format: .webp, width: 16_384, height: 16_384)),
        (vp8x(width: 1, height: 1), ImageHeader(format: .webp, width: 1, height: 1)),
        (vp8x(width: 4032, height: 3024), ImageHeader(format: .webp, width: 4032, height: 3024)),
        (vp8x(width: 1 << 24, height: 1 << 24), ImageHeader(format: .webp, width: 1 << 24, height: 1 << 24)),
    ]

    @Test func readsHandBuiltPNGGIFAndWebPHeadersAtTheirSizes() {
        for (bytes, header) in Self.handBuilt {
            #expect(ImageHeader.read(bytes) == header)
            // The bytes after the record are not read: a whole file reads the same.
            #expect(ImageHeader.read(bytes + [UInt8](repeating: 0xAB, count: 100)) == header)
        }
    }

    @Test func everyPrefixShorterThanTheRecordHoldingTheSizeIsNil() {
        for (bytes, header) in Self.handBuilt {
            for count in 0..<bytes.count {
                #expect(ImageHeader.read(bytes.prefix(count)) == nil, "\(header), first \(count) bytes")
            }
        }
    }

    // MARK: JPEG

    /// Where the frame header (FF C0) of a SyntheticJPEG starts.
    static func frameOffset(_ bytes: [UInt8], marker: UInt8 = 0xC0) throws -> Int {
        try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == marker })
    }

    @Test(arguments: [(1, 1), (7, 9), (8, 8), (640, 480), (1080, 1350), (4032, 3024), (65_535, 2)])
    func readsSyntheticJPEGsAtTheirSizes(width: Int, height: Int) throws {
        let jpeg = try #require(SyntheticJPEG(width: width, height: height, byteCount: SyntheticJPEG.minimumBytes(width: width, height: height) + 500))
        let expected = ImageHeader(format: .jpeg, width: width, height: height)
        let bytes = jpeg.data
        #expect(ImageHeader.read(bytes) == expected)
        #expect(ImageHeader.read(bytes[...]) == expected)
        // A collection without contiguous storage is read the same.
        #expect(ImageHeader.read(bytes.lazy.map { $0 }) == expected)
    }

    /// A SyntheticJPEG with an EXIF APP1 segment (a big-endian TIFF header and an empty IFD)
    /// after SOI, fill bytes before its frame header, and that header's code set to `marker`.
    static func jpeg(width: Int, height: Int, frameMarker marker: UInt8) throws -> [UInt8] {
        var bytes = try #require(SyntheticJPEG(width: width, height: height, byteCount: SyntheticJPEG.minimumBytes(width: width, height: height))).data
        let frame = try frameOffset(bytes)
        bytes[frame + 1] = marker
        bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF], at: frame)
        let exif: [UInt8] = Array("Exif".utf8) + [0, 0] + Array("MM".utf8) + [0, 0x2A, 0, 0, 0, 8] + [0, 0] + [0, 0, 0, 0]
        bytes.insert(contentsOf: [0xFF, 0xE1] + bigEndian(2 + exif.count, 2) + exif, at: 2)
        return bytes
    }

    @Test func readsProgressiveJPEGsWithEXIFAndFillBytesBeforeTheFrame() throws {
        for marker: UInt8 in [0xC0, 0xC1, 0xC2] {
            #expect(ImageHeader.read(try Self.jpeg(width: 1179, height: 2556, frameMarker: marker)) == ImageHeader(format: .jpeg, width: 1179, height: 2556))
        }
    }

    @Test func everyStartOfFrameCodeButDHTJPGAndDACGivesTheSize() throws {
        for marker: UInt8 in 0xC0...0xCF {
            let header = ImageHeader.read(try Self.jpeg(width: 300, height: 200, frameMarker: marker))
            // DHT, JPG and DAC are skipped as segments; the scan then comes before any frame.
            let isFrame = ![0xC4, 0xC8, 0xCC].contains(marker)
            #expect(header == (isFrame ? ImageHeader(format: .jpeg, width: 300, height: 200) : nil), "marker \(marker)")
        }
    }

    @Test func everyPrefixOfAJPEGEndingBeforeItsFrameHeaderIsNilAndEveryLongerOneReads() throws {
        let files: [(bytes: [UInt8], marker: UInt8)] = [
            (try #require(SyntheticJPEG(width: 21, height: 13, byteCount: 400)).data, 0xC0),
            (try Self.jpeg(width: 21, height: 13, frameMarker: 0xC2), 0xC2),
        ]
        for (bytes, marker) in files {
            // The frame header: marker, length 11, precision, height, width, one component.
            let end = try Self.frameOffset(bytes, marker: marker) + 2 + 11
            for count in 0...bytes.count {
                #expect(ImageHeader.read(bytes.prefix(count)) == (count < end ? nil : ImageHeader(format: .jpeg, width: 21, height: 13)), "first \(count) bytes")
            }
        }
    }

    // MARK: Real captures

    @Test func everyImageBodyInTheFixturesReadsAsTheFormatOfItsMimeType() throws {
        var images = 0
        for capture in HARFixturesTests.captures {
            _ = try HARReader(path: HARFixturesTests.path(capture.file)).forEachEntry { entry in
                guard let type = entry.contentType, type.hasPrefix("image/"),
                      let format = ImageFormat(rawValue: String(type.dropFirst("image/".count))),
                      let body = entry.decodedContent else { return }
                images += 1
                let header = ImageHeader.read(body)
                #expect(header?.format == format, "\(capture.file) entry \(entry.index)")
                #expect(header.map { (1...20_000).contains($0.width) && (1...20_000).contains($0.height) } == true,
                        "\(capture.file) entry \(entry.index): \(String(describing: header))")
            }
        }
        // 5 PNGs from Chrome, 57 images from Fiddler, 2 from mitmproxy, 4 from Safari.
        #expect(images == 68)
    }

    // MARK: Refusals

    @Test func malformedHeadersAreNil() throws {
        let jpeg = try #require(SyntheticJPEG(width: 40, height: 30, byteCount: 500)).data
        let frame = try Self.frameOffset(jpeg)
        func edited(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
            var copy = jpeg
            copy.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            return copy
        }
        let cases: [(String, [UInt8])] = [
            ("nothing", []),
            ("one byte", [0xFF]),
            ("HTML", Array("<!doctype html><html><body>Not found</body></html>".utf8)),
            ("SVG", Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>".utf8)),
            ("JPEG: SOI, EOI", [0xFF, 0xD8, 0xFF, 0xD9]),
            ("JPEG: a second SOI", [0xFF, 0xD8, 0xFF, 0xD8] + jpeg.dropFirst(2)),
            ("JPEG: a scan before the frame", [0xFF, 0xD8] + SyntheticJPEG.startOfScan + jpeg.dropFirst(2)),
            ("JPEG: no marker after SOI", [0xFF, 0xD8, 0x00] + jpeg.dropFirst(2)),
            ("JPEG: FF 00 where a marker belongs", [0xFF, 0xD8, 0xFF, 0x00] + jpeg.dropFirst(2)),
            ("JPEG: a segment length of 0", edited(4, [0x00, 0x00])),
            ("JPEG: a segment length of 1", edited(4, [0x00, 0x01])),
            ("JPEG: a segment length past the end", edited(4, [0xFF, 0xF0])),
            ("JPEG: a frame of 0 components", edited(frame + 2, [0x00, 0x08, 0x08, 0x00, 0x1E, 0x00, 0x28, 0x00])),
            ("JPEG: a frame length that disagrees with its components", edited(frame + 2, [0x00, 0x0C])),
            ("JPEG: a height left to DNL", edited(frame + 5, [0x00, 0x00])),
            ("JPEG: a width of 0", edited(frame + 7, [0x00, 0x00])),
            ("PNG: another chunk first (Apple's CgBI)", Self.png(width: 10, height: 10, chunk: "CgBI")),
            ("PNG: an IHDR of 12 bytes", Self.png(width: 10, height: 10).enumerated().map { $0.offset == 11 ? 12 : $0.element }),
            ("PNG: a width of 0", Self.png(width: 0, height: 10)),
            ("PNG: a height of 2³¹", Self.png(width: 10, height: 1 << 31)),
            ("GIF: GIF88a", Self.gif(width: 10, height: 10, version: "88a")),
            ("GIF: a height of 0", Self.gif(width: 10, height: 0)),
            ("WebP: an interframe", Self.webp("VP8 ", [0xF1] + Self.vp8(width: 10, height: 10).dropFirst(21))),
            ("WebP: no start code", Self.webp("VP8 ", [0xF0, 0x33, 0x00, 0x9D, 0x01, 0x2B, 10, 0, 10, 0])),
            ("WebP: a VP8 width of 0", Self.vp8(width: 0, height: 10, scale: 1)),
            ("WebP: a VP8 chunk too short for its sizes", Self.webp("VP8 ", Array(Self.vp8(width: 10, height: 10).suffix(10).prefix(9))) + [0]),
            ("WebP: a lossless signature other than 0x2F", Self.webp("VP8L", [0x2E] + Self.vp8l(width: 10, height: 10).suffix(4))),
            ("WebP: a lossless version 1", Self.vp8l(width: 10, height: 10, version: 1)),
            ("WebP: an ALPH chunk first", Self.webp("ALPH", [UInt8](repeating: 0, count: 10))),
            ("RIFF WAVE", Array("RIFF".utf8) + Self.littleEndian(36, 4) + Array("WAVEfmt ".utf8) + Self.littleEndian(16, 4) + [UInt8](repeating: 0, count: 16)),
        ]
        for (name, bytes) in cases {
            #expect(ImageHeader.read(bytes) == nil, "\(name)")
        }
    }

    /// A signature of `format`, sometimes followed by the start of the record it leads to, so
    /// random bytes reach each reader's later checks.
    static func signature(_ format: ImageFormat, _ generator: inout SeededGenerator) -> [UInt8] {
        func pick(_ choices: [[UInt8]]) -> [UInt8] { choices[Int(generator.next(below: UInt64(choices.count)))] }
        switch format {
        case .jpeg: return pick([[0xFF, 0xD8], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x0B]])
        case .png: return pick([Array(png(width: 1, height: 1).prefix(8)), Array(png(width: 1, height: 1).prefix(16))])
        case .gif: return pick([Array("GIF87a".utf8), Array("GIF89a".utf8)])
        case .webp: return Array("RIFF".utf8) + littleEndian(Int(generator.next(below: 1 << 32)), 4) + Array("WEBP".utf8)
            + pick([Array("VP8 ".utf8), Array("VP8L".utf8), Array("VP8X".utf8), Array("VP8 ".utf8) + [10, 0, 0, 0]])
        }
    }

    @Test(arguments: ImageFormat.allCases)
    func tenThousandRandomByteStringsAfterASignatureNeverTrapAndReadOnlyAsThatFormat(format: ImageFormat) {
        var generator = SeededGenerator(seed: 17, stream: UInt64(ImageFormat.allCases.firstIndex(of: format)!))
        var wrong: [[UInt8]] = []
        var read = 0
        for _ in 0..<10_000 {
            var bytes = Self.signature(format, &generator)
            // A quarter 0xFF (JPEG markers and fill), a quarter below 16 (short lengths, counts),
            // the rest any.
            for _ in 0..<generator.next(below: 48) {
                let draw = generator.next()
                bytes.append(draw % 4 == 0 ? 0xFF : UInt8(truncatingIfNeeded: draw >> 8) & (draw % 4 == 1 ? 0x0F : 0xFF))
            }
            let header = ImageHeader.read(bytes)
            if let header {
                read += 1
                if header.format != format || header.width < 1 || header.height < 1 { wrong.append(bytes) }
            }
            if ImageHeader.read(bytes.lazy.map { $0 }) != header { wrong.append(bytes) }
        }
        #expect(wrong.isEmpty, "first: \(wrong.first.map { InputError.quote($0, limit: 64) } ?? "")")
        // Some are headers: the checks after the signature are reached.
        #expect(read > 0)
    }
}
