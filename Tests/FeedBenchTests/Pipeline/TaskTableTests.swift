import Testing
@testable import FeedBench

/// The task table: one task per URL, serials that tell tasks apart, and download queues that
/// hand out connections high priority first and never beyond the limit.
@Suite struct TaskTableTests {
    static func image(_ url: UInt64) -> ImageDescriptor {
        ImageDescriptor(url: url, pixelWidth: 1000, pixelHeight: 1000, encodedBytes: 200_000)
    }

    static func table(connections: Int = 2, raises: Bool = true) -> TaskTable {
        TaskTable(connectionLimit: connections, raisesPriorityOnJoin: raises, prefetchLowPriority: true)
    }

    /// Queues a prefetch (low priority) or a display (high priority) of each URL.
    static func queue(_ urls: [UInt64], display: Bool, in table: inout TaskTable) {
        for url in urls { table.insert(image(url), display: display, prefetchBatch: display ? nil : 0, phase: .queued) }
    }

    /// The URLs `table` gives connections to until it gives none.
    static func dispatched(_ table: inout TaskTable) -> [UInt64] {
        var urls: [UInt64] = []
        while let task = table.nextDownload() {
            #expect(task.phase == .downloading && table[task.image.url]?.phase == .downloading)
            urls.append(task.image.url)
        }
        return urls
    }

    @Test func queuedTasksGetConnectionsHighPriorityFirstAndNeverBeyondTheLimit() {
        var table = Self.table(connections: 2)
        Self.queue([1, 2], display: false, in: &table)
        Self.queue([3], display: true, in: &table)
        #expect(Self.dispatched(&table) == [3, 1], "the display first, then the prefetches in arrival order")
        #expect(table.connectionsInUse == 2 && table.lowQueue == [2])
        table.releaseConnection()
        #expect(Self.dispatched(&table) == [2], "a freed connection goes to the next queued task")
        #expect(table.connectionsInUse == 2)
    }

    @Test func prefetchesQueueWithDisplaysWhenNotLowPriority() {
        var table = TaskTable(connectionLimit: 6, raisesPriorityOnJoin: true, prefetchLowPriority: false)
        Self.queue([1], display: false, in: &table)
        Self.queue([2], display: true, in: &table)
        #expect(table.highQueue == [1, 2] && table.lowQueue.isEmpty, "first come, first served")
    }

    @Test func aDisplayJoiningAQueuedPrefetchRaisesItOnlyWhenSetTo() {
        var raising = Self.table(connections: 0, raises: true)
        Self.queue([1, 2], display: false, in: &raising)
        let joined = raising.joinDisplay(2)
        #expect(joined?.phase == .queued && joined?.raised == true)
        #expect(raising.highQueue == [2] && raising.lowQueue == [1])
        #expect(raising[2]?.displayWaiting == true && raising[2]?.highPriority == true)
        #expect(raising.joinDisplay(2)?.raised == false, "raised once")

        var keeping = Self.table(connections: 0, raises: false)
        Self.queue([1, 2], display: false, in: &keeping)
        #expect(keeping.joinDisplay(2)?.raised == false)
        #expect(keeping.highQueue.isEmpty && keeping.lowQueue == [1, 2])
        #expect(keeping[2]?.displayWaiting == true)
        #expect(keeping.joinDisplay(3) == nil, "no task to join")
    }

    @Test func aRaisedTaskThatIsNotQueuedStaysOutOfTheQueues() {
        var table = Self.table()
        table.insert(Self.image(1), display: false, prefetchBatch: 0, phase: .readingDisk)
        let joined = table.joinDisplay(1)
        #expect(joined?.phase == .readingDisk && joined?.raised == true)
        #expect(table.highQueue.isEmpty && table.lowQueue.isEmpty)
    }

    @Test func aRateLimitedTaskGetsNoConnectionUntilEnqueued() {
        var table = Self.table()
        table.insert(Self.image(1), display: true, prefetchBatch: nil, phase: .rateLimited)
        #expect(Self.dispatched(&table).isEmpty)
        table.enqueue(1)
        #expect(table[1]?.phase == .queued)
        #expect(Self.dispatched(&table) == [1])
    }

    @Test func aRemovedTaskLeavesItsQueueAndItsURLFree() {
        var table = Self.table(connections: 1)
        Self.queue([1, 2], display: false, in: &table)
        Self.queue([3], display: true, in: &table)
        table.remove(3)
        table.remove(1)
        #expect(table[1] == nil && table[3] == nil)
        #expect(Self.dispatched(&table) == [2])
    }

    @Test func serialsTellANewTaskFromAnEarlierOneForTheSameURL() {
        var table = Self.table()
        let first = table.insert(Self.image(1), display: true, prefetchBatch: nil, phase: .readingDisk)
        table.remove(1)
        let second = table.insert(Self.image(1), display: true, prefetchBatch: nil, phase: .readingDisk)
        table.removeAll()
        let third = table.insert(Self.image(1), display: true, prefetchBatch: nil, phase: .readingDisk)
        #expect(first < second && second < third)
        #expect(table[1]?.serial == third)
    }

    @Test func aDownloadCountsAsSentOnceAndAgainOnlyAfterItWasUnsent() {
        var table = Self.table()
        Self.queue([1], display: true, in: &table)
        _ = table.nextDownload()
        #expect(table.markSent(1, at: 5) && !table.markSent(1, at: 9))
        #expect(table[1]?.sentAt == 5)
        #expect(table.markUnsent(1) && !table.markUnsent(1))
        #expect(table.markSent(1, at: 12) && table[1]?.sentAt == 12)
        #expect(!table.markSent(2, at: 0) && !table.markUnsent(2), "no task, nothing sent")
    }

    @Test func theTaskRemembersWhoHoldsIt() {
        var table = Self.table()
        table.insert(Self.image(1), display: false, prefetchBatch: 4, phase: .readingDisk)
        #expect(table[1]?.startedByPrefetch == true && table[1]?.prefetchHeld == true)
        #expect(table.leaveDisplay(1)?.prefetchHeld == true)
        table.setPrefetchBatch(nil, of: 1)
        #expect(table[1]?.prefetchHeld == false && table[1]?.prefetchBatch == nil)
        table.markDecoding(1, waiting: true)
        #expect(table[1]?.phase == .waitingToDecode)
        table.markDecoding(1, waiting: false)
        #expect(table[1]?.phase == .decoding)
    }

    @Test func removingEverythingFreesEveryConnection() {
        var table = Self.table(connections: 2)
        Self.queue([1, 2, 3], display: true, in: &table)
        _ = Self.dispatched(&table)
        table.removeAll()
        #expect(table.connectionsInUse == 0 && table[1] == nil && table.highQueue.isEmpty)
        Self.queue([4, 5], display: true, in: &table)
        #expect(Self.dispatched(&table) == [4, 5])
    }
}
