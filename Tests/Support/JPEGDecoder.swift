import Foundation

/// libjpeg-turbo's `djpeg`, a real JPEG decoder, for the tests that check served images
/// (Debian's `libjpeg-turbo-progs`; `.ci/run` installs it). Tests that need it are skipped,
/// with this reason, when it is missing.
public enum JPEGDecoder {
    public static let path: String? = ["/usr/bin/djpeg", "/usr/local/bin/djpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    public static let missing = "djpeg is not installed (apt-get install libjpeg-turbo-progs): the decoder test is skipped"

    /// Decodes `bytes` (written under `folder`) and returns the size djpeg found, or `nil` when
    /// it refuses the file.
    public static func size(of bytes: [UInt8], in folder: URL) throws -> (width: Int, height: Int)? {
        let input = folder.appendingPathComponent("decode.jpg"), output = folder.appendingPathComponent("decode.pgm")
        try Data(bytes).write(to: input)
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = ["-pnm", "-outfile", output.path, input.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        // A PGM header: "P5\nW H\n255\n".
        let header = String(decoding: try Data(contentsOf: output).prefix(32), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard header.count >= 3, let width = Int(header[1]), let height = Int(header[2]) else { return nil }
        return (width, height)
    }
}
