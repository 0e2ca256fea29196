import Testing
@testable import FeedBench

@Suite struct ImageCatalogTests {
    @Test func aDescriptorIsAPureFunctionOfSeedAndId() {
        let catalog = ImageCatalog(seed: 11)
        let again = ImageCatalog(seed: 11)
        let other = ImageCatalog(seed: 12)
        let forward = (0..<200).map { catalog.descriptor(UInt64($0)) }
        let backward = (0..<200).reversed().map { again.descriptor(UInt64($0)) }.reversed()
        #expect(forward == Array(backward))
        #expect(forward.enumerated().allSatisfy { $0.element.url == UInt64($0.offset) })
        let changed = (0..<200).filter { other.descriptor(UInt64($0)) != forward[$0] }.count
        #expect(changed > 190)
    }

    @Test func photoFeedSizesStayInTheirRangesAndRatios() {
        let catalog = ImageCatalog(size: 20_000, seed: 3)
        let model = ImageSizeModel.photoFeed
        var counts = [ImageSizeModel.AspectRatio: Int]()
        for id in 0..<UInt64(catalog.size) {
            let image = catalog.descriptor(id)
            #expect(model.sides.contains(image.pixelWidth) && model.sides.contains(image.pixelHeight))
            #expect(model.encodedBytes.contains(image.encodedBytes))
            let long = max(image.pixelWidth, image.pixelHeight), short = min(image.pixelWidth, image.pixelHeight)
            let shape = model.aspectRatios.first { ratio in
                let (l, s) = (max(ratio.width, ratio.height), min(ratio.width, ratio.height))
                return (long * s + l / 2) / l == short && (ratio.width >= ratio.height) == (image.pixelWidth >= image.pixelHeight)
            }
            #expect(shape != nil, "\(image.pixelWidth)×\(image.pixelHeight) matches no ratio")
            if let shape { counts[shape, default: 0] += 1 }
        }
        for ratio in model.aspectRatios {
            let share = Double(counts[ratio] ?? 0) / Double(catalog.size)
            #expect(abs(share - ratio.weight) < 0.015, "\(ratio.width):\(ratio.height) drawn \(share)")
        }
    }

    @Test func bytesGrowWithPixelCount() {
        let catalog = ImageCatalog(size: 10_000, seed: 5)
        let images = (0..<UInt64(catalog.size)).map(catalog.descriptor)
        let pixels = images.map { Double($0.pixelWidth * $0.pixelHeight) }
        let bytes = images.map { Double($0.encodedBytes) }
        #expect(correlation(pixels, bytes) > 0.8)
        let meanBytes = bytes.reduce(0, +) / Double(bytes.count)
        #expect((150_000...350_000).contains(meanBytes))
    }

    @Test func aRatioThatCannotFitTheSidesIsDetected() {
        let tall = ImageSizeModel.AspectRatio(width: 1, height: 5, weight: 1)
        #expect(ImageSizeModel.longSides(for: tall, within: 500...2000) == nil)
        let wide = ImageSizeModel.AspectRatio(width: 16, height: 9, weight: 1)
        #expect(ImageSizeModel.longSides(for: wide, within: 500...2000) == 889...2000)
    }

    func correlation(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        return sxy / (sxx * syy).squareRoot()
    }
}
