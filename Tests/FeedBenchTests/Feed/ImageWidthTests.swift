@testable import FeedBench
import Testing

/// The width a feed asks its images at: what `--image-width` takes, how a server's resize
/// changes an image (aspect ratio kept, bytes by HTTP Archive's bits per pixel, never enlarged),
/// and what a run asking for it downloads and decodes.
@Suite struct ImageWidthTests {
    @Test func itTakesFullCellOrPixelsAndRefusesAnythingElse() throws {
        #expect(try ImageWidth.parse("full", source: "--image-width") == .full)
        #expect(try ImageWidth.parse("cell", source: "--image-width") == .cell)
        #expect(try ImageWidth.parse("750", source: "--image-width") == .pixels(750))
        #expect(try ImageWidth.parse("20000", source: "--image-width") == .pixels(20_000))
        for text in ["0", "-1", "20001", "wide", "", "750px", "7.5"] {
            #expect(throws: InputError(source: "--image-width", "expected full, cell or a width in pixels from 1 to 20000, found \"\(text)\"")) {
                try ImageWidth.parse(text, source: "--image-width")
            }
        }
        #expect(ImageWidth.cell.pixels(on: .lowEnd) == 750 && ImageWidth.cell.pixels(on: .tablet) == 556)
        #expect(ImageWidth.full.pixels(on: .lowEnd) == nil && ImageWidth.pixels(500).pixels(on: .mid) == 500)
    }

    @Test func theBitsPerPixelAreHTTPArchivesMediansBetweenTheirBands() {
        #expect(ResizedBytes.bitsPerPixel(pixels: 150_000) == 2.07)
        #expect(ResizedBytes.bitsPerPixel(pixels: 750_000) == 1.56)
        #expect(abs(ResizedBytes.bitsPerPixel(pixels: 200_000) - 2.01) < 1e-9)
        // Held beyond the table's first and last bands.
        #expect(ResizedBytes.bitsPerPixel(pixels: 10_000) == 3.07)
        #expect(ResizedBytes.bitsPerPixel(pixels: 4_000_000) == 1.56)
    }

    /// The property, image by image over the photo feed: a narrower request never
    /// downloads more bytes or decodes more memory, keeps the aspect ratio, and an image
    /// already that narrow comes whole.
    @Test(arguments: [UInt64(1), 2, 3])
    func aNarrowerWidthNeverDownloadsOrDecodesMore(seed: UInt64) throws {
        let catalog = ImageCatalog(size: 2_000, seed: seed)
        var pipeline = RunConfiguration.pipeline(for: .policy(.init(.lru)), on: .lowEnd)
        let tiers = try CacheTiers(configuration: pipeline, profile: .lowEnd)
        pipeline.downsample = false
        let full = try CacheTiers(configuration: pipeline, profile: .lowEnd)
        let widths = stride(from: 2_100, through: 50, by: -50).map { $0 }
        for id in 0..<UInt64(catalog.size) {
            let original = catalog.descriptor(id)
            #expect(original.served(width: nil) == original)
            #expect(original.served(width: original.pixelWidth) == original)
            var wider = original
            for width in widths {
                let served = original.served(width: width)
                #expect(served.pixelWidth == min(width, original.pixelWidth))
                #expect(abs(Double(served.pixelHeight) / Double(served.pixelWidth) - Double(original.pixelHeight) / Double(original.pixelWidth))
                        <= 1 / Double(served.pixelWidth))
                #expect(served.encodedBytes <= wider.encodedBytes)
                #expect(served.encodedBytes >= SyntheticJPEG.minimumBytes(width: served.pixelWidth, height: served.pixelHeight), "a real JPEG")
                #expect(tiers.decodedBytes(served) <= tiers.decodedBytes(wider))
                #expect(full.decodedBytes(served) <= full.decodedBytes(wider))
                wider = served
            }
        }
    }

    /// A downsampled image costs the cell's bitmap, or its own when it is smaller than the cell:
    /// a downsampler does not enlarge.
    @Test func aDownsampledImageNeverCostsMoreThanItsOwnPixels() throws {
        let tiers = try CacheTiers(configuration: RunConfiguration.pipeline(for: .policy(.init(.lru)), on: .lowEnd), profile: .lowEnd)
        #expect(tiers.decodedBytes(ImageDescriptor(url: 0, pixelWidth: 1_080, pixelHeight: 1_350, encodedBytes: 1)) == 750 * 750 * 4)
        #expect(tiers.decodedBytes(ImageDescriptor(url: 0, pixelWidth: 500, pixelHeight: 625, encodedBytes: 1)) == 500 * 625 * 4)
    }

    @Test func theScenarioNamesTheWidthAskedAndReadsItBack() throws {
        var run = try RunConfiguration.standard(profile: .lowEnd, policy: .init(.lru), window: .items(PrefetchWindow(ahead: 5)),
                                                workload: .behavior(.browser, duration: 10_000_000_000), seed: 1)
        #expect(run.scenario == "cacheFirst")
        run.imageWidth = 750
        #expect(run.scenario == "cacheFirst;width=750")
        #expect(run.api.catalog.descriptor(7) == ImageCatalog(seed: 0).descriptor(7).served(width: 750))
        #expect(ImageWidth.pixels(inScenario: run.scenario) == 750)
        #expect(ImageWidth.pixels(inScenario: "cacheFirst;buffer=4;width=500;workload=ab12cd34") == 500)
        #expect(ImageWidth.pixels(inScenario: "cacheFirst;decode=full") == nil)
        #expect(ImageWidth.removingTag(from: "cacheFirst;buffer=4;width=500;workload=ab12cd34") == "cacheFirst;buffer=4;workload=ab12cd34")
        #expect(ImageWidth.removingTag(from: "networkFirst") == "networkFirst")
    }

    /// On a link that keeps up (Wi-Fi), the same session asking narrower images downloads no
    /// more bytes, seed by seed; on a slow one it can: more images finish in the same scroll.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aRunOnWiFiAskingNarrowerImagesDownloadsNoMore(seed: UInt64) throws {
        let widths: [Int?] = [nil, 1_000, 750, 500, 300]
        let runs = try widths.map { width in
            var run = try RunConfiguration.standard(profile: .lowEnd, policy: .init(.lru), window: .items(PrefetchWindow(ahead: 10)),
                                                    workload: .behavior(.skimmer, duration: 30_000_000_000), seed: seed,
                                                    network: NetworkProfile.named("wifi"))
            run.imageWidth = width
            return try FeedSimulation.run(run)
        }
        for (wider, narrower) in zip(runs, runs.dropFirst()) {
            #expect(narrower.bytesDownloaded <= wider.bytesDownloaded)
            #expect(narrower.displays == wider.displays)
        }
        #expect(runs.last!.bytesDownloaded < runs.first!.bytesDownloaded / 3)
    }
}
