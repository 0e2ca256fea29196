extension ImageHeader {
    /// A WebP: `RIFF`, the file's size, `WEBP`, then its first chunk (four-letter type,
    /// little-endian size, data), which is one of:
    /// - `VP8 ` (lossy): a 3-byte frame tag saying a key frame, the start code 9D 01 2A, then
    ///   width and height in 14 bits each (little-endian 16-bit fields whose top 2 bits scale);
    /// - `VP8L` (lossless): the signature 0x2F, then 32 little-endian bits holding width − 1
    ///   and height − 1 in 14 bits each, and a version, 0;
    /// - `VP8X` (extended: alpha, animation, metadata): one byte of flags, three reserved, then
    ///   the canvas's width − 1 and height − 1 in 24 little-endian bits each.
    /// `nil` for another chunk, or a chunk too short for its fields. O(1).
    static func webp(_ bytes: ImageBytes) -> ImageHeader? {
        guard bytes.matches(Array("RIFF".utf8), at: 0), bytes.matches(Array("WEBP".utf8), at: 8),
              let size = bytes.littleEndian(4, at: 16)
        else { return nil }
        let data = 20
        if bytes.matches(Array("VP8 ".utf8), at: 12) {
            guard size >= 10, let tag = bytes.byte(at: data), tag & 1 == 0, bytes.matches([0x9D, 0x01, 0x2A], at: data + 3),
                  let width = bytes.littleEndian(2, at: data + 6), let height = bytes.littleEndian(2, at: data + 8)
            else { return nil }
            return sized(.webp, width & 0x3FFF, height & 0x3FFF)
        }
        if bytes.matches(Array("VP8L".utf8), at: 12) {
            guard size >= 5, bytes.byte(at: data) == 0x2F, let bits = bytes.littleEndian(4, at: data + 1), bits >> 29 == 0
            else { return nil }
            return sized(.webp, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
        if bytes.matches(Array("VP8X".utf8), at: 12) {
            guard size >= 10, let width = bytes.littleEndian(3, at: data + 4), let height = bytes.littleEndian(3, at: data + 7)
            else { return nil }
            return sized(.webp, width + 1, height + 1)
        }
        return nil
    }
}
