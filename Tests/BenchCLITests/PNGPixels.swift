import Foundation

/// The pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's screenshots are),
/// decoded with the system's zlib (loaded at run time: no headers or packages needed beyond
/// the library every Linux machine with a browser has). Enough to tell a blank page from one
/// with charts on it.
struct PNGPixels {
    let width: Int
    let height: Int
    /// Red, green, blue of each pixel, row by row.
    let rgb: [UInt32]

    enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        var description: String { if case let .malformed(why) = self { "not a PNG this reader handles: \(why)" } else { "" } }
    }

    init(contentsOf url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure.malformed("signature") }
        func bigEndian(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8, width = 0, height = 0, channels = 0
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = bigEndian(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = offset + 8
            guard data + length + 4 <= bytes.count else { throw Failure.malformed("chunk \(type) runs past the end") }
            switch type {
            case "IHDR":
                width = bigEndian(data)
                height = bigEndian(data + 4)
                guard bytes[data + 8] == 8, bytes[data + 12] == 0 else { throw Failure.malformed("bit depth or interlace") }
                switch bytes[data + 9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw Failure.malformed("colour type \(bytes[data + 9])")
                }
            case "IDAT":
                compressed += bytes[data..<data + length]
            default:
                break
            }
            offset = data + length + 4
        }
        guard width > 0, height > 0, channels > 0 else { throw Failure.malformed("no header") }
        let stride = width * channels
        let raw = try Self.inflate(compressed, expected: height * (stride + 1))
        // Undo each row's filter (PNG spec §9): None, Sub, Up, Average, Paeth.
        var pixels = [UInt8](repeating: 0, count: height * stride)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            let source = row * (stride + 1) + 1, target = row * stride
            for i in 0..<stride {
                let a = i >= channels ? Int(pixels[target + i - channels]) : 0
                let b = row > 0 ? Int(pixels[target - stride + i]) : 0
                let c = row > 0 && i >= channels ? Int(pixels[target - stride + i - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure.malformed("filter \(filter)")
                }
                pixels[target + i] = UInt8((Int(raw[source + i]) + predictor) & 0xFF)
            }
        }
        self.width = width
        self.height = height
        rgb = (0..<width * height).map { index in
            let p = index * channels
            return UInt32(pixels[p]) << 16 | UInt32(pixels[p + 1]) << 8 | UInt32(pixels[p + 2])
        }
    }

    /// zlib's `uncompress`, found with dlopen.
    static func inflate(_ compressed: [UInt8], expected: Int) throws -> [UInt8] {
        typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt) -> Int32
        #if os(Linux)
        let library = "libz.so.1"
        #else
        let library = "libz.dylib"
        #endif
        guard let handle = dlopen(library, RTLD_NOW), let symbol = dlsym(handle, "uncompress") else {
            throw Failure.malformed("cannot load \(library)")
        }
        let uncompress = unsafeBitCast(symbol, to: Uncompress.self)
        var output = [UInt8](repeating: 0, count: expected)
        var length = UInt(expected)
        let status = uncompress(&output, &length, compressed, UInt(compressed.count))
        guard status == 0, length == UInt(expected) else { throw Failure.malformed("zlib status \(status), \(length) of \(expected) bytes") }
        return output
    }

    /// How many different colours appear.
    var distinctColours: Int { Set(rgb).count }

    /// The share of pixels that are not (nearly) white.
    var inkedShare: Double {
        let inked = rgb.filter { ($0 >> 16) & 0xFF < 240 || ($0 >> 8) & 0xFF < 240 || $0 & 0xFF < 240 }.count
        return Double(inked) / Double(rgb.count)
    }
}
