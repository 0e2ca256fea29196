import DequeModule

/// The image decoder: at most `limit` decodes run at once (Nuke: 1; `nil`: any number), the
/// rest wait in arrival order, and the next to start is the first high-priority one waiting,
/// else the first. It counts the bitmap bytes being decoded (app memory) and how long a decode
/// takes: the full-size bitmap's bytes at the device's decode rate. A decoder that leaves images
/// for the main thread to decode at their first draw (`onMainThread`) takes no time here.
struct DecodeQueue {
    struct Waiting {
        let url: UInt64
        var highPriority: Bool
    }

    let limit: Int?
    /// Decoded bitmap bytes produced per second.
    let bytesPerSecond: Int64
    let onMainThread: Bool
    /// Decodes waiting for a slot, in arrival order.
    private(set) var waiting = Deque<Waiting>()
    private(set) var running = 0
    /// Bitmap bytes of the images being decoded.
    private(set) var bytesDecoding: Int64 = 0

    init(limit: Int?, bytesPerSecond: Int64, onMainThread: Bool = false) {
        self.limit = limit
        self.bytesPerSecond = bytesPerSecond
        self.onMainThread = onMainThread
    }

    /// How long decoding `image` takes, wherever it runs. O(1).
    func duration(of image: ImageDescriptor) -> Int64 {
        Int64(image.pixelWidth) * Int64(image.pixelHeight) * 4 * 1_000_000_000 / bytesPerSecond
    }

    /// Starts decoding `image` into a bitmap of `bitmapBytes` and returns how long it takes, in
    /// nanoseconds; when every slot is busy it waits instead and the result is `nil`. O(1).
    mutating func start(_ image: ImageDescriptor, highPriority: Bool, bitmapBytes: Int64) -> Int64? {
        if let limit, running >= limit {
            waiting.append(Waiting(url: image.url, highPriority: highPriority))
            return nil
        }
        running += 1
        bytesDecoding += bitmapBytes
        return onMainThread ? 0 : duration(of: image)
    }

    /// A decode of a `bitmapBytes` bitmap finished: its slot is free.
    mutating func finished(bitmapBytes: Int64) {
        running -= 1
        bytesDecoding -= bitmapBytes
    }

    /// Takes the next waiting decode, the first high-priority one if any, else the first;
    /// `nil` when none waits. O(waiting).
    mutating func next() -> UInt64? {
        guard !waiting.isEmpty else { return nil }
        let index = waiting.firstIndex { $0.highPriority } ?? waiting.startIndex
        return waiting.remove(at: index).url
    }

    /// `url`'s waiting decode is now wanted at high priority. O(waiting).
    mutating func raisePriority(of url: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.url == url }) else { return }
        waiting[index] = Waiting(url: url, highPriority: true)
    }

    /// Forgets every decode, waiting or running (the app was killed or relaunched).
    mutating func removeAll() {
        waiting.removeAll()
        running = 0
        bytesDecoding = 0
    }
}
