import Testing
@testable import FeedBench

/// The pipeline's contract with cells and the prefetcher: coalescing, priorities and
/// cancellation by the last requester (DESIGN.md §1.4), driven event by event.
@Suite struct ImagePipelineTests {
    struct Harness {
        var pipeline: ImagePipeline
        var queue = EventQueue<SimulationEvent>()

        init(destination: PrefetchDestination = .memoryAndDisk, prefetchConcurrency: Int = 2) throws {
            let configuration = PipelineConfiguration(memoryPolicy: PolicySpec(.lru), memoryLimits: .bytes(1 << 30),
                                                      diskLimits: .bytes(1 << 30), prefetchConcurrency: prefetchConcurrency,
                                                      prefetchDestination: destination)
            pipeline = try ImagePipeline(configuration: configuration, profile: .lowEnd, network: .wifi, seed: 1)
        }

        /// Runs pipeline events until none is left; returns the URLs delivered to displays.
        mutating func drain() -> [UInt64] {
            var delivered: [UInt64] = []
            while let (now, event) = queue.next() {
                if case let .pipeline(event) = event { pipeline.handle(event, at: now, queue: &queue) }
                delivered += pipeline.takeReady()
            }
            return delivered
        }
    }

    static func image(_ url: UInt64) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: 1000, pixelHeight: 1000, encodedBytes: 200_000)
    }

    @Test func aDisplayJoiningAPrefetchMakesNoSecondDownload() throws {
        var h = try Harness()
        h.pipeline.startPrefetch(Self.image(1), at: 0, queue: &h.queue)
        #expect(h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue) == .inflightHit)
        #expect(h.drain() == [1])
        #expect(h.pipeline.imageRequests == 1)
        #expect(h.pipeline.bytesDownloaded == 200_000)
    }

    @Test func aCellLeavingWhileThePrefetcherHoldsTheDownloadKeepsItRunning() throws {
        var h = try Harness()
        h.pipeline.startPrefetch(Self.image(1), at: 0, queue: &h.queue)
        _ = h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue)
        h.pipeline.cancelDisplay(1, at: 0, queue: &h.queue)
        #expect(h.drain() == [], "nobody waits on screen any more")
        #expect(h.pipeline.cancelledRequests == 0)
        #expect(h.pipeline.bytesDownloaded == 200_000)
        #expect(h.pipeline.memoryCache.contains(1), "the prefetch lands in memory")
    }

    @Test func aRequestNobodyHoldsStopsAndCountsAsCancelled() throws {
        var h = try Harness()
        #expect(h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue) == .miss)
        // Let the request reach the network, then leave.
        _ = h.queue.next().map { if case let .pipeline(e) = $0.event { h.pipeline.handle(e, at: $0.time, queue: &h.queue) } }
        h.pipeline.cancelDisplay(1, at: h.queue.now, queue: &h.queue)
        #expect(h.drain() == [])
        #expect(h.pipeline.cancelledRequests == 1)
        #expect(h.pipeline.bytesDownloaded == 0)
        #expect(!h.pipeline.diskCache.contains(1))
    }

    @Test func aCachedImageIsNeverDownloadedAgain() throws {
        var h = try Harness()
        _ = h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue)
        _ = h.drain()
        #expect(h.pipeline.requestDisplay(Self.image(1), at: h.queue.now, queue: &h.queue) == .memoryHit)
        h.pipeline.memoryCache.removeAll()
        #expect(h.pipeline.requestDisplay(Self.image(1), at: h.queue.now, queue: &h.queue) == .diskHit)
        #expect(h.drain() == [1])
        #expect(h.pipeline.imageRequests == 1)
    }

    @Test func displaysGoBeforePrefetchesAndPrefetchesKeepTheirLimit() throws {
        var h = try Harness(prefetchConcurrency: 2)
        for url in UInt64(1)...5 { h.pipeline.startPrefetch(Self.image(url), at: 0, queue: &h.queue) }
        #expect(h.pipeline.connectionsInUse == 2, "two prefetches at once")
        for url in UInt64(10)...15 { _ = h.pipeline.requestDisplay(Self.image(url), at: 0, queue: &h.queue) }
        #expect(h.pipeline.connectionsInUse == 6, "six connections per host")
        #expect(h.pipeline.highQueue.count == 2 && h.pipeline.lowQueue.count == 3)
        // A display joining a queued prefetch raises it to high priority.
        #expect(h.pipeline.requestDisplay(Self.image(5), at: 0, queue: &h.queue) == .inflightHit)
        #expect(h.pipeline.highQueue.last == 5 && !h.pipeline.lowQueue.contains(5))
    }

    @Test func diskOnlyPrefetchesAreNotDecoded() throws {
        var h = try Harness(destination: .disk)
        h.pipeline.startPrefetch(Self.image(1), at: 0, queue: &h.queue)
        _ = h.drain()
        #expect(h.pipeline.diskCache.contains(1) && !h.pipeline.memoryCache.contains(1))
        #expect(h.pipeline.prefetchDownloads == [1])
    }

    @Test func downsamplingDecodesToTheCellSize() throws {
        let h = try Harness()
        #expect(h.pipeline.decodedBytes(Self.image(1)) == 750 * 750 * 4)
        var full = h.pipeline.configuration
        full.downsample = false
        let fullSize = try ImagePipeline(configuration: full, profile: .lowEnd, network: .wifi, seed: 1)
        #expect(fullSize.decodedBytes(Self.image(1)) == 1000 * 1000 * 4)
    }
}
