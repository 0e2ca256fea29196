import Foundation
import TestSupport
import Testing
@testable import FeedBench

/// The images `bench serve` sends: a real decoder (libjpeg-turbo's `djpeg`) opens each at the
/// descriptor's size, and the file is exactly the modelled number of bytes.
@Suite(.scratchFolder) struct SyntheticJPEGTests {
    @Test(.enabled(if: JPEGDecoder.path != nil, Comment(rawValue: JPEGDecoder.missing)))
    func aRealDecoderOpensEveryImageAtItsSize() throws {
        let folder = try ScratchFolder.make()
        let catalog = ImageCatalog(seed: 7)
        var shapes = [(1, 1, 200), (7, 9, 300), (8, 8, 183), (1999, 1001, 70_000), (2000, 2000, 600_000)]
        shapes += (0..<12).map { id in
            let image = catalog.descriptor(UInt64(id))
            return (image.pixelWidth, image.pixelHeight, Int(image.encodedBytes))
        }
        shapes.append((500, 500, 65_533 * 2 + 4 * 2 + SyntheticJPEG.minimumBytes(width: 500, height: 500) - 4))
        for (width, height, bytes) in shapes {
            let jpeg = try #require(SyntheticJPEG(width: width, height: height, byteCount: bytes))
            let data = jpeg.data
            #expect(data.count == bytes)
            let decoded = try JPEGDecoder.size(of: data, in: folder)
            #expect(decoded?.width == width && decoded?.height == height, "\(width)×\(height), \(bytes) B")
        }
    }

    @Test func anyRangeIsTheSameBytesAsTheWholeFile() throws {
        let jpeg = try #require(SyntheticJPEG(width: 1080, height: 1350, byteCount: 200_000))
        let whole = jpeg.data
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<200 {
            let a = Int(generator.next(in: 0...199_999)), b = Int(generator.next(in: 0...200_000))
            let range = min(a, b)..<max(a, b)
            #expect(jpeg.bytes(in: range) == Array(whole[range]))
        }
        #expect(Array(whole.prefix(2)) == [0xFF, 0xD8] && Array(whole.suffix(2)) == [0xFF, 0xD9])
    }

    @Test func tooFewBytesOrAnImpossibleSizeIsRefused() {
        #expect(SyntheticJPEG(width: 2000, height: 2000, byteCount: SyntheticJPEG.minimumBytes(width: 2000, height: 2000) - 1) == nil)
        #expect(SyntheticJPEG(width: 2000, height: 2000, byteCount: SyntheticJPEG.minimumBytes(width: 2000, height: 2000)) != nil)
        #expect(SyntheticJPEG(width: 0, height: 10, byteCount: 10_000) == nil)
        #expect(SyntheticJPEG(width: 70_000, height: 10, byteCount: 1_000_000) == nil)
        #expect(SyntheticJPEG.minimumBytes(width: 2000, height: 2000) < ImageSizeModel.photoFeed.encodedBytes.lowerBound,
                "every catalogue image can be served at its size")
    }
}
