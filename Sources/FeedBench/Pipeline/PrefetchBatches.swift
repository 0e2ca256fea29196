import DequeModule

/// The app's prefetcher as the libraries build it: a batch of images waits in the prefetcher,
/// and at most `limit` of a batch are requested from the pipeline at once; the next starts
/// when one finishes. Nuke and SDWebImage keep one prefetcher for every batch; Kingfisher's
/// documented usage makes one per batch (`perBatch`), each with its own limit.
///
/// Batches are looked up by number, never iterated, so their order cannot reach an output.
/// Every operation mutates a batch in place (a copied batch would copy its waiting list).
struct PrefetchBatches {
    struct Batch {
        var pending = Deque<ImageDescriptor>()
        var running = 0
    }

    let limit: Int
    let perBatch: Bool
    /// The shared prefetcher's batch (when not `perBatch`).
    private(set) var shared = Batch()
    /// The batches of their own (when `perBatch`), by number.
    private(set) var own: [Int: Batch] = [:]
    private var nextNumber = 1
    /// The shared prefetcher's batch number.
    static let shared = 0

    init(limit: Int, perBatch: Bool) {
        precondition(limit > 0, "PrefetchBatches: the limit must be positive")
        self.limit = limit
        self.perBatch = perBatch
    }

    /// The batch numbered `number`, if it is under way. O(1).
    subscript(number: Int) -> Batch? { number == Self.shared ? shared : own[number] }

    /// Queues `images` (nearest first) in a new batch, or in the shared one; returns its number.
    /// O(images).
    mutating func add<Images: Sequence<ImageDescriptor>>(_ images: Images) -> Int {
        guard perBatch else {
            shared.pending.append(contentsOf: images)
            return Self.shared
        }
        let number = nextNumber
        nextNumber += 1
        var batch = Batch()
        batch.pending.append(contentsOf: images)
        if !batch.pending.isEmpty { own[number] = batch }
        return number
    }

    /// The next image `batch` may request now, counted as running; `nil` when the batch is at its
    /// limit or has nothing waiting. O(1).
    mutating func next(in number: Int) -> ImageDescriptor? {
        if number == Self.shared {
            guard shared.running < limit, let image = shared.pending.popFirst() else { return nil }
            shared.running += 1
            return image
        }
        guard let batch = own[number], batch.running < limit, !batch.pending.isEmpty else { return nil }
        own[number]!.running += 1
        return own[number]!.pending.removeFirst()
    }

    /// One of `batch`'s running prefetches ended (done, failed, skipped or stopped). A finished
    /// batch of its own is forgotten. O(1).
    mutating func finished(in number: Int) {
        if number == Self.shared {
            shared.running -= 1
        } else if own[number] != nil {
            own[number]!.running -= 1
            if own[number]!.running == 0 && own[number]!.pending.isEmpty { own[number] = nil }
        }
    }

    /// Takes `url` off the shared prefetcher's waiting list; returns whether it was waiting.
    /// O(waiting).
    mutating func withdraw(_ url: UInt64) -> Bool {
        guard let index = shared.pending.firstIndex(where: { $0.url == url }) else { return false }
        shared.pending.remove(at: index)
        return true
    }

    /// Forgets every batch (the app was killed or relaunched).
    mutating func removeAll() {
        shared = Batch()
        own.removeAll()
    }
}
