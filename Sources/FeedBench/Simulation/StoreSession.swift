/// The run's session on its feed store (`bench run --store`): 0 on a fresh store, n + 1 after a
/// store whose last finished run was session n. A later session starts the gap between
/// launches after the previous one ended, numbers its launches on from it and draws its scroll
/// traces, feed API and network from its own streams of the seed.
struct StoreSession {
    let number: Int
    /// Whether the store is a file, whose history the run continues and records.
    let persistent: Bool
    /// The virtual time the first launch starts: 0, or the previous session's end plus `gap`.
    let startTime: Int64

    /// The session a run on `store` (a file when `persistent`) is. O(1) queries.
    init(store: FeedStore, persistent: Bool, gap: Int64) throws {
        self.persistent = persistent
        let previous = try persistent ? store.lastSession() : nil
        number = previous.map { $0.number + 1 } ?? 0
        startTime = previous.map { $0.endedAt + gap } ?? 0
    }

    /// Whether earlier sessions ran on the store.
    var continues: Bool { number > 0 }

    /// Separates the seeds of successive sessions on one store (an odd 64-bit constant, apart
    /// from the launches' golden-ratio stride).
    static var stride: UInt64 { 0xD1B5_4A32_D192_ED03 }

    /// The session's seed for its transports, from the run's `seed`.
    func seed(_ seed: UInt64) -> UInt64 { seed &+ UInt64(number) &* Self.stride }

    /// The seed of launch `index`'s scroll trace, in a run of `launches` launches a session.
    func traceSeed(_ seed: UInt64, launch index: Int, launches: Int) -> UInt64 {
        seed &+ UInt64(number * launches + index) &* 0x9e37_79b9_7f4a_7c15
    }
}
