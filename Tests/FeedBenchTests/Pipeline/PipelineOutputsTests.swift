import Testing
@testable import FeedBench

/// What the pipeline reports: counters, the request log when one is kept, and the images ready
/// or failed, each taken once.
@Suite struct PipelineOutputsTests {
    static func image(_ url: UInt64) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: 1000, pixelHeight: 1000, encodedBytes: 200_000)
    }

    @Test func readyAndFailedImagesAreTakenOnceInTheOrderTheyCame() {
        var outputs = PipelineOutputs()
        outputs.imageReady(3)
        outputs.imageFailed(7)
        outputs.imageReady(1)
        #expect(outputs.takeReady() == [3, 1] && outputs.takeReady() == [])
        #expect(outputs.takeFailed() == [7] && outputs.takeFailed() == [])
    }

    @Test func droppingTheUntakenImagesKeepsTheCounters() {
        var outputs = PipelineOutputs()
        outputs.requestSent()
        outputs.downloaded(Self.image(1), startedByPrefetch: true)
        outputs.imageReady(1)
        outputs.imageFailed(2)
        outputs.dropUntaken()
        #expect(outputs.takeReady().isEmpty && outputs.takeFailed().isEmpty)
        #expect(outputs.imageRequests == 1 && outputs.bytesDownloaded == 200_000 && outputs.prefetchDownloads == [1])
    }

    @Test func requestsAndBytesAreCountedAndPrefetchedDownloadsRemembered() {
        var outputs = PipelineOutputs()
        outputs.requestSent()
        outputs.requestSent()
        outputs.requestUnsent()
        outputs.downloaded(Self.image(1), startedByPrefetch: true)
        outputs.downloaded(Self.image(2), startedByPrefetch: false)
        #expect(outputs.imageRequests == 1)
        #expect(outputs.bytesDownloaded == 400_000 && outputs.prefetchDownloads == [1])
    }

    @Test func withoutARequestLogCancellationsAreCountedAndNothingIsRecorded() {
        var outputs = PipelineOutputs()
        #expect(!outputs.isRecording && outputs.takeConnection() == 0)
        let use = ConnectionUse(connection: 1, opened: true)
        outputs.logDownload(Self.image(1), sentAt: 0, now: 10, use: use)
        outputs.downloadCancelled(Self.image(2), sentAt: 0, now: 10, use: use, received: 5_000)
        #expect(outputs.cancelledRequests == 1 && outputs.requestLog == nil)
    }

    @Test func aRequestLogNumbersConnectionsAsSlotsAndRecordsFinishedAndCancelledDownloads() {
        var outputs = PipelineOutputs()
        outputs.requestLog = RequestRecorder(connections: 2, origin: 100)
        #expect(outputs.isRecording)
        #expect(outputs.takeConnection() == 1 && outputs.takeConnection() == 2)
        outputs.releaseConnection(1)
        #expect(outputs.takeConnection() == 1, "the lowest free slot")
        outputs.logDownload(Self.image(1), sentAt: 100, now: 300, use: ConnectionUse(connection: 1, opened: true))
        outputs.downloadCancelled(Self.image(2), sentAt: 200, now: 300, use: ConnectionUse(connection: 2, opened: false), received: 5_000)
        let records = outputs.requestLog?.records ?? []
        #expect(records.map(\.status) == [200, RequestLogFile.clientClosed])
        #expect(records.map(\.bytes) == [200_000, 5_000])
        #expect(records.map(\.time) == [0, 100] && records.map(\.connection) == [1, 2])
        #expect(outputs.cancelledRequests == 1)
    }
}
