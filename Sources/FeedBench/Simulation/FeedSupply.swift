/// Where the feed's images come from, and when to ask for more (docs/model.md#the-feed-store): the feed API
/// calls the launch still wants and the one under way, the refill rule (seed 000: call when
/// fewer than `refillBelow` unviewed items remain ahead, a second's pause after a failure), and
/// seed 000's supply → move → consume flow when `bufferLimit` > 0 — new images wait in the
/// supply, up to `bufferLimit` of them are preloaded in the buffer, and they move to the display
/// list when fewer than `moveBelow` remain ahead of the user.
///
/// It decides; the owner acts: `takeCall()` says a call is to be made, `nextToDisplay` and
/// `nextToPreload` hand over the images to move, and the owner makes the calls and moves.
struct FeedSupply {
    /// Images move from the buffer to the display list when fewer than this many remain ahead.
    static var moveBelow: Int { 10 }

    let rules: FeedRules
    let bufferLimit: Int
    /// Images received and not yet in the buffer, and the buffer, in arrival order.
    private var supply: [ImageDescriptor] = []
    private var buffer: [ImageDescriptor] = []
    /// The buffer's images the prefetcher was asked for and not yet released.
    private var held = Set<UInt64>()
    /// API calls still to make, whether one is under way, and when it reached the server
    /// (`nil`: it failed offline), for the request log.
    private(set) var callsWanted = 0
    private(set) var callUnderWay = false
    private(set) var callSentAt: Int64?
    private var refillPausedUntil: Int64 = 0

    init(rules: FeedRules, bufferLimit: Int) {
        self.rules = rules
        self.bufferLimit = bufferLimit
    }

    /// Whether images pass through the supply and the buffer (seed 000's flow).
    var buffers: Bool { bufferLimit > 0 }

    /// Images waiting in the buffer and the supply.
    var waiting: Int { buffer.count + supply.count }

    /// A new launch: nothing supplied, no call wanted or under way. O(1).
    mutating func startLaunch() {
        callsWanted = 0
        callUnderWay = false
        refillPausedUntil = 0
        supply = []
        buffer = []
        held = []
    }

    // MARK: The buffer

    /// Puts `images` in the supply, skipping those the display list (`isListed`), the supply or
    /// the buffer already holds. O(supply + buffer + images).
    mutating func receive(_ images: [ImageDescriptor], isListed: (UInt64) -> Bool) {
        let known = Set(supply.map(\.url)).union(buffer.map(\.url))
        supply += images.filter { !isListed($0.url) && !known.contains($0.url) }
    }

    /// The buffer's next image for the display list, when fewer than `moveBelow` items remain
    /// `ahead` of the user. O(buffer).
    mutating func nextToDisplay(ahead: Int) -> ImageDescriptor? {
        hasToMove(ahead: ahead) ? buffer.removeFirst() : nil
    }

    /// Whether the buffer has an image for a display list with `ahead` items left. O(1).
    func hasToMove(ahead: Int) -> Bool { ahead < Self.moveBelow && !buffer.isEmpty }

    /// The supply's next image for the buffer while it has room; the owner preloads it. O(supply).
    mutating func nextToPreload() -> ImageDescriptor? {
        guard buffer.count < bufferLimit, !supply.isEmpty else { return nil }
        let image = supply.removeFirst()
        buffer.append(image)
        held.insert(image.url)
        return image
    }

    /// `url` was shown: returns whether its preload was still held (the owner releases it). O(1).
    mutating func release(_ url: UInt64) -> Bool { held.remove(url) != nil }

    // MARK: API calls

    /// The launch wants at least `count` calls. O(1).
    mutating func want(_ count: Int) { callsWanted = max(callsWanted, count) }

    /// Whether seed 000's refill rule calls now, with `ahead` unviewed items in the display list:
    /// never while calls are wanted or under way, within a failure's pause, or with
    /// `refillBelow` or more items waiting; then it wants the calls `FeedRules` says (at least
    /// one while the feed is not `shown`). O(1).
    @inline(__always) // once a frame; almost always the first guard
    mutating func refill(at now: Int64, ahead: Int, shown: Bool) -> Bool {
        let unviewed = ahead + waiting
        guard callsWanted == 0, !callUnderWay, now >= refillPausedUntil, unviewed < rules.refillBelow else { return false }
        callsWanted = max(shown ? 0 : 1, rules.callsToMake(unviewed: unviewed, on: .browsing))
        return true
    }

    /// Takes the next wanted call unless one is under way; the owner makes it. O(1).
    mutating func takeCall() -> Bool {
        guard !callUnderWay, callsWanted > 0 else { return false }
        callsWanted -= 1
        callUnderWay = true
        return true
    }

    /// The call taken reached the server at `time`, or (`nil`) failed offline. O(1).
    mutating func callSent(at time: Int64?) { callSentAt = time }

    /// The call under way was answered. O(1).
    mutating func callAnswered() { callUnderWay = false }

    /// The call failed: no more calls until a refill a second after `now`. O(1).
    mutating func callFailed(at now: Int64) {
        callsWanted = 0
        refillPausedUntil = now + 1_000_000_000
    }
}
