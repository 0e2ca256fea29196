import Testing
@testable import FeedBench

/// The pipeline's contract with cells and the prefetcher: coalescing, priorities and
/// cancellation by the last requester (docs/model.md#the-image-pipeline), driven event by event.
@Suite struct ImagePipelineTests {
    struct Harness {
        var pipeline: ImagePipeline
        var queue = EventQueue<SimulationEvent>()

        init(destination: PrefetchDestination = .memoryAndDisk, prefetchConcurrency: Int = 2,
             configure: (inout PipelineConfiguration) -> Void = { _ in }) throws {
            var prefetch = PrefetchSettings()
            prefetch.concurrency = prefetchConcurrency
            prefetch.destination = destination
            var configuration = PipelineConfiguration(memoryPolicy: PolicySpec(.lru), memoryLimits: .bytes(1 << 30),
                                                      diskLimits: .bytes(1 << 30), prefetch: prefetch)
            configure(&configuration)
            pipeline = try ImagePipeline(configuration: configuration, profile: .lowEnd, network: NetworkProfile.wifi.overHTTP11, seed: 1)
        }

        /// Gives the prefetcher one batch of images.
        mutating func prefetch(_ urls: [UInt64]) {
            pipeline.startPrefetching(urls.map(ImagePipelineTests.image), at: queue.now, queue: &queue)
        }

        /// Runs pipeline events until `time` (or none is left).
        mutating func run(until time: Int64) {
            while let next = queue.nextTime, next <= time, let (now, event) = queue.next() {
                if case let .pipeline(event) = event { pipeline.handle(event, at: now, queue: &queue) }
            }
        }

        /// The order queued downloads will get connections in.
        var dispatchOrder: [UInt64] { Array(pipeline.tasks.highQueue) + Array(pipeline.tasks.lowQueue) }

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
        h.prefetch([1])
        #expect(h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue) == .inflightHit)
        #expect(h.drain() == [1])
        #expect(h.pipeline.imageRequests == 1)
        #expect(h.pipeline.figures.bytesDownloaded == 200_000)
    }

    @Test func aCellLeavingWhileThePrefetcherHoldsTheDownloadKeepsItRunning() throws {
        var h = try Harness()
        h.prefetch([1])
        _ = h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue)
        h.pipeline.cancelDisplay(1, at: 0, queue: &h.queue)
        #expect(h.drain() == [], "nobody waits on screen any more")
        #expect(h.pipeline.figures.cancelledRequests == 0)
        #expect(h.pipeline.figures.bytesDownloaded == 200_000)
        #expect(h.pipeline.caches.memory.own.contains(1), "the prefetch lands in memory")
    }

    @Test func aRequestNobodyHoldsStopsAndCountsAsCancelled() throws {
        var h = try Harness()
        #expect(h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue) == .miss)
        // Let the request reach the network, then leave.
        _ = h.queue.next().map { if case let .pipeline(e) = $0.event { h.pipeline.handle(e, at: $0.time, queue: &h.queue) } }
        h.pipeline.cancelDisplay(1, at: h.queue.now, queue: &h.queue)
        #expect(h.drain() == [])
        #expect(h.pipeline.figures.cancelledRequests == 1)
        #expect(h.pipeline.figures.bytesDownloaded == 0)
        #expect(!h.pipeline.caches.disk.contains(1))
    }

    @Test func aCachedImageIsNeverDownloadedAgain() throws {
        var h = try Harness()
        _ = h.pipeline.requestDisplay(Self.image(1), at: 0, queue: &h.queue)
        _ = h.drain()
        #expect(h.pipeline.requestDisplay(Self.image(1), at: h.queue.now, queue: &h.queue) == .memoryHit)
        h.pipeline.clearMemory()
        #expect(h.pipeline.requestDisplay(Self.image(1), at: h.queue.now, queue: &h.queue) == .diskHit)
        #expect(h.drain() == [1])
        #expect(h.pipeline.imageRequests == 1)
    }

    @Test func thePrefetcherRequestsAtMostItsLimitAndDisplaysGoFirst() throws {
        var h = try Harness(prefetchConcurrency: 2)
        h.prefetch([1, 2, 3, 4, 5])
        #expect(h.pipeline.tasks.connectionsInUse == 2, "two prefetches at once")
        #expect(h.pipeline.prefetcher[PrefetchBatches.shared]?.pending.map(\.url) == [3, 4, 5], "the rest wait in the prefetcher")
        for url in UInt64(10)...15 { _ = h.pipeline.requestDisplay(Self.image(url), at: 0, queue: &h.queue) }
        #expect(h.pipeline.tasks.connectionsInUse == 6, "six connections per host")
        #expect(h.dispatchOrder == [14, 15])
        // The prefetcher has not asked for image 5 yet: the display downloads it itself.
        #expect(h.pipeline.requestDisplay(Self.image(5), at: 0, queue: &h.queue) == .miss)
        _ = h.drain()
        #expect(h.pipeline.imageRequests == 11, "image 5 once: the prefetcher finds it in memory")
    }

    /// Six displays hold the connections and two more wait; then two prefetches queue behind
    /// them and a cell joins the second.
    static func joinQueuedPrefetch(_ configure: (inout PipelineConfiguration) -> Void) throws -> Harness {
        var h = try Harness(configure: configure)
        for url in UInt64(10)...17 { _ = h.pipeline.requestDisplay(Self.image(url), at: 0, queue: &h.queue) }
        h.prefetch([1, 2])
        #expect(h.pipeline.requestDisplay(Self.image(2), at: 0, queue: &h.queue) == .inflightHit)
        return h
    }

    @Test func aJoiningDisplayRaisesAQueuedPrefetchOnlyWhenConfiguredTo() throws {
        let raised = try Self.joinQueuedPrefetch { $0.raisesPriorityOnJoin = true }
        #expect(raised.dispatchOrder == [16, 17, 2, 1])
        let kept = try Self.joinQueuedPrefetch { $0.raisesPriorityOnJoin = false }
        #expect(kept.dispatchOrder == [16, 17, 1, 2])
    }

    @Test func aPrefetcherPerBatchRunsEachBatchToItsLimitAndIsNeverStopped() throws {
        var h = try Harness(prefetchConcurrency: 2) { $0.prefetch.perBatch = true }
        h.prefetch([1, 2, 3])
        h.prefetch([4, 5, 6])
        #expect(h.pipeline.tasks.connectionsInUse == 4, "two from each batch")
        h.pipeline.stopPrefetch(1, at: 0, queue: &h.queue)
        #expect(h.pipeline.tasks[1] != nil && h.pipeline.figures.cancelledRequests == 0)
        _ = h.drain()
        #expect(h.pipeline.imageRequests == 6)
        #expect(h.pipeline.prefetcher.own.isEmpty, "finished batches are forgotten")
    }

    @Test func aStoppedPrefetchLeavesTheWaitingListOrIsCancelled() throws {
        var h = try Harness(prefetchConcurrency: 1)
        h.prefetch([1, 2, 3])
        h.pipeline.stopPrefetch(3, at: 0, queue: &h.queue)
        h.pipeline.stopPrefetch(1, at: 0, queue: &h.queue)
        #expect(h.pipeline.tasks[1] == nil && h.pipeline.tasks[2] != nil, "the slot goes to the next waiting image")
        _ = h.drain()
        #expect(h.pipeline.imageRequests == 2 && h.pipeline.figures.cancelledRequests == 1)
        #expect(h.pipeline.caches.memory.own.contains(2) && !h.pipeline.caches.memory.own.contains(3))
    }

    @Test func prefetchedDiskHitsAreLoadedIntoMemoryOnlyWhenConfiguredTo() throws {
        for loads in [true, false] {
            var h = try Harness { $0.prefetch.loadsDiskHits = loads }
            h.pipeline.caches.storeOnDisk(Self.image(1), at: 0)
            h.prefetch([1])
            _ = h.drain()
            #expect(h.pipeline.caches.memory.own.contains(1) == loads)
            #expect(h.pipeline.prefetcher[PrefetchBatches.shared]?.running == 0)
        }
    }

    @Test func aRateLimiterLetsABurstThroughThenItsRate() throws {
        var h = try Harness { $0.downloadRateLimit = DownloadRateLimit(rate: 40, burst: 3) }
        for url in UInt64(1)...8 { _ = h.pipeline.requestDisplay(Self.image(url), at: 0, queue: &h.queue) }
        #expect(h.pipeline.tasks.connectionsInUse == 3 && h.pipeline.rateLimit.waiting.count == 5)
        // A token every 25 ms; the limiter looks again after 52 ms (2.1 tokens' time).
        h.run(until: 51_999_999)
        #expect(h.pipeline.rateLimit.waiting.count == 5)
        h.run(until: 52_000_000)
        #expect(h.pipeline.rateLimit.waiting.count == 3, "two tokens by 52 ms")
        h.pipeline.cancelDisplay(8, at: h.queue.now, queue: &h.queue)
        #expect(h.pipeline.rateLimit.waiting.count == 2, "a cancelled download leaves the limiter without a token")
        #expect(h.drain().count == 7)
    }

    @Test func decodesWaitForTheirQueueAndCountInMemory() throws {
        var h = try Harness { $0.decodeConcurrency = 1 }
        var most = 0
        var queued = 0
        for url in UInt64(1)...4 { _ = h.pipeline.requestDisplay(Self.image(url), at: 0, queue: &h.queue) }
        while let (now, event) = h.queue.next() {
            if case let .pipeline(event) = event { h.pipeline.handle(event, at: now, queue: &h.queue) }
            most = max(most, h.pipeline.decodes.running)
            queued = max(queued, h.pipeline.decodes.waiting.count)
            #expect(h.pipeline.decodes.bytesDecoding == Int64(h.pipeline.decodes.running) * 750 * 750 * 4)
        }
        #expect(most == 1 && queued > 0, "one decode at a time, others waiting")
        #expect(h.pipeline.memoryOccupancy.count == 4 && h.pipeline.decodes.bytesDecoding == 0)
    }

    @Test func aDisplayJoiningAWaitingDecodeGoesAheadOfWaitingPrefetchesOnlyWhenItRaisesPriority() throws {
        for raises in [true, false] {
            var h = try Harness(prefetchConcurrency: 3) {
                $0.decodeConcurrency = 1
                $0.raisesPriorityOnJoin = raises
            }
            for url in UInt64(1)...3 { h.pipeline.caches.storeOnDisk(Self.image(url), at: 0) }
            h.prefetch([1, 2, 3])
            h.run(until: 1_000_000) // the three disk reads, 0.54 ms each, at once
            #expect(h.pipeline.decodes.waiting.map(\.url) == [2, 3], "1 decodes, 2 and 3 wait")
            #expect(h.pipeline.requestDisplay(Self.image(3), at: h.queue.now, queue: &h.queue) == .inflightHit)
            var ready: [UInt64] = []
            while ready.isEmpty, let (now, event) = h.queue.next() {
                if case let .pipeline(event) = event { h.pipeline.handle(event, at: now, queue: &h.queue) }
                ready = h.pipeline.takeReady()
            }
            #expect(ready == [3])
            #expect(h.pipeline.caches.memory.own.contains(2) == !raises, "raised: 3 is decoded before 2")
        }
    }

    @Test func diskOnlyPrefetchesAreNotDecoded() throws {
        var h = try Harness(destination: .disk)
        h.prefetch([1])
        _ = h.drain()
        #expect(h.pipeline.caches.disk.contains(1) && !h.pipeline.caches.memory.own.contains(1))
        #expect(h.pipeline.figures.prefetchDownloads == [1])
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
