import Testing
@testable import FeedBench

/// The decoder: a limited number of decodes at once, the rest waiting, high priority first.
@Suite struct DecodeQueueTests {
    /// A 1000 × 1000 image: a 4,000,000-byte full-size bitmap.
    static func image(_ url: UInt64) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: 1000, pixelHeight: 1000, encodedBytes: 200_000)
    }

    /// Starts decodes of `urls` (high priority where `high` says so); returns those that started.
    static func start(_ urls: [UInt64], high: Set<UInt64> = [], in queue: inout DecodeQueue) -> [UInt64] {
        urls.filter { queue.start(image($0), highPriority: high.contains($0), bitmapBytes: 1_000) != nil }
    }

    /// Takes the waiting decodes in the order they would start.
    static func drain(_ queue: inout DecodeQueue) -> [UInt64] {
        var order: [UInt64] = []
        while let url = queue.next() { order.append(url) }
        return order
    }

    @Test func atMostTheLimitDecodeAtOnceAndTheRestWaitInArrivalOrder() {
        var queue = DecodeQueue(limit: 2, bytesPerSecond: 4_000_000)
        #expect(Self.start([1, 2, 3, 4], in: &queue) == [1, 2])
        #expect(queue.running == 2 && queue.waiting.map(\.url) == [3, 4])
        queue.finished(bitmapBytes: 1_000)
        #expect(queue.running == 1)
        #expect(Self.drain(&queue) == [3, 4])
    }

    @Test func withoutALimitNoDecodeWaits() {
        var queue = DecodeQueue(limit: nil, bytesPerSecond: 4_000_000)
        #expect(Self.start(Array(1...50), in: &queue).count == 50)
        #expect(queue.waiting.isEmpty && queue.next() == nil)
    }

    @Test func aDecodeTakesTheFullSizeBitmapAtTheDecodeRateAndCountsItsOwnBitmap() {
        var queue = DecodeQueue(limit: 1, bytesPerSecond: 8_000_000)
        #expect(queue.start(Self.image(1), highPriority: true, bitmapBytes: 2_250_000) == 500_000_000,
                "4,000,000 source bytes at 8 MB/s, whatever size it is decoded to")
        #expect(queue.bytesDecoding == 2_250_000)
        #expect(queue.start(Self.image(2), highPriority: true, bitmapBytes: 2_250_000) == nil)
        #expect(queue.bytesDecoding == 2_250_000, "a waiting decode holds no bitmap yet")
        queue.finished(bitmapBytes: 2_250_000)
        #expect(queue.bytesDecoding == 0 && queue.running == 0)
    }

    @Test func theNextDecodeIsTheFirstHighPriorityOneWaitingElseTheFirst() {
        var queue = DecodeQueue(limit: 1, bytesPerSecond: 4_000_000)
        _ = Self.start([1, 2, 3, 4, 5], high: [3, 5], in: &queue)
        #expect(Self.drain(&queue) == [3, 5, 2, 4])
    }

    @Test func aRaisedWaitingDecodeGoesAheadOfLowPriorityOnesButNotOfEarlierHighOnes() {
        var queue = DecodeQueue(limit: 1, bytesPerSecond: 4_000_000)
        _ = Self.start([1, 2, 3, 4, 5], high: [3], in: &queue)
        queue.raisePriority(of: 5)
        queue.raisePriority(of: 9)
        #expect(Self.drain(&queue) == [3, 5, 2, 4])
    }

    @Test func removingEverythingFreesEverySlot() {
        var queue = DecodeQueue(limit: 1, bytesPerSecond: 4_000_000)
        _ = Self.start([1, 2], in: &queue)
        queue.removeAll()
        #expect(queue.running == 0 && queue.bytesDecoding == 0 && queue.waiting.isEmpty)
        #expect(Self.start([3], in: &queue) == [3])
    }
}
