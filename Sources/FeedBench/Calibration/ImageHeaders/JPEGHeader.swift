extension ImageHeader {
    /// A JPEG: SOI, then marker segments up to the first frame header (SOFn), whose height and
    /// width are the image's. Each marker is 0xFF and a code, after any number of 0xFF fill
    /// bytes; TEM and RSTn stand alone, every other segment starts with its length (counting
    /// the length's two bytes) and is skipped by it — APPn (JFIF, EXIF, ICC, XMP), COM, DQT,
    /// DHT, DRI and the rest. Any SOFn counts: baseline, extended, progressive, lossless,
    /// hierarchical, arithmetic-coded. `nil` when a scan (SOS), EOI or a second SOI comes
    /// first, a byte where a marker belongs is not 0xFF, the frame header is cut off or its
    /// length disagrees with its components, or its height is 0 (left to a DNL marker after
    /// the first scan). O(segments before the frame header).
    static func jpeg(_ bytes: ImageBytes) -> ImageHeader? {
        guard bytes.matches([0xFF, 0xD8], at: 0) else { return nil }
        var offset = 2
        while true {
            guard bytes.byte(at: offset) == 0xFF else { return nil }
            offset += 1
            while bytes.byte(at: offset) == 0xFF { offset += 1 }
            guard let marker = bytes.byte(at: offset) else { return nil }
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:  // TEM, RST0–RST7
                continue
            case 0x00, 0xD8, 0xD9, 0xDA:  // a stuffed 0 (entropy-coded data), SOI, EOI, SOS
                return nil
            default:
                break
            }
            guard let length = bytes.bigEndian(2, at: offset), length >= 2 else { return nil }
            if isStartOfFrame(marker) { return frame(bytes, at: offset, length: length) }
            offset += length
        }
    }

    /// SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range.
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The frame header whose length (`length`) is at `offset`: sample precision, height and
    /// width (big-endian), the number of components, and three bytes for each component.
    static func frame(_ bytes: ImageBytes, at offset: Int, length: Int) -> ImageHeader? {
        guard bytes.has(length, at: offset), let components = bytes.byte(at: offset + 7), components > 0,
              length == 8 + 3 * Int(components),
              let height = bytes.bigEndian(2, at: offset + 3), let width = bytes.bigEndian(2, at: offset + 5)
        else { return nil }
        return sized(.jpeg, width, height)
    }
}
