/// When the app calls the feed API and how much its feed store keeps: seed 000's rules
/// (docs/model.md, "The feed store"), each a parameter with the seed's value as default.
///
/// Counts are of **unviewed** images in the store: rows not yet shown.
public struct FeedRules: Sendable, Hashable {
    /// At launch, fetch when fewer than this many unviewed images are stored; a refill tops up to
    /// this many.
    public var fillBelow: Int
    /// The most API calls one refill makes.
    public var maxCallsPerRefill: Int
    /// While browsing, refill when fewer than this many unviewed images remain.
    public var refillBelow: Int
    /// Never fetch when this many or more unviewed images are stored; a refill's target is capped
    /// here.
    public var stopAbove: Int
    /// The most rows the store keeps; the oldest beyond this are deleted.
    public var maxRows: Int
    /// Force a refresh when the newest row is older than this (ns).
    public var refreshAfter: Int64

    /// When a refill is considered.
    public enum Occasion: Sendable, Hashable {
        /// The app launched: the threshold is `fillBelow`.
        case launch
        /// An image was shown: the threshold is `refillBelow`, so browsing refills in batches
        /// rather than one call per 10 images shown.
        case browsing
    }

    public init(fillBelow: Int = 50, maxCallsPerRefill: Int = 5, refillBelow: Int = 20, stopAbove: Int = 200,
                maxRows: Int = 300, refreshAfter: Int64 = 24 * 3_600 * 1_000_000_000) {
        self.fillBelow = fillBelow
        self.maxCallsPerRefill = maxCallsPerRefill
        self.refillBelow = refillBelow
        self.stopAbove = stopAbove
        self.maxRows = maxRows
        self.refreshAfter = refreshAfter
    }

    /// How many API calls to make now, with `unviewed` unviewed images stored. O(1).
    ///
    /// With threshold = `fillBelow` at launch or `refillBelow` while browsing, and
    /// target = min(`fillBelow`, `stopAbove`): 0 when `unviewed` ≥ threshold or ≥ target;
    /// otherwise ⌈(target − unviewed) / 10⌉ (the fewest calls that reach the target if none of
    /// their images is a duplicate) capped at `maxCallsPerRefill`. Under the defaults: at launch
    /// 0 → 5, 19 → 4, 20 → 3, 49 → 1, 50 → 0; while browsing 0 → 5, 19 → 4, 20 → 0.
    public func callsToMake(unviewed: Int, on occasion: Occasion) -> Int {
        let threshold = occasion == .launch ? fillBelow : refillBelow
        let target = min(fillBelow, stopAbove)
        guard unviewed < threshold, unviewed < target else { return 0 }
        let pageSize = FeedAPIConfiguration.pageSize
        return min(maxCallsPerRefill, (target - unviewed + pageSize - 1) / pageSize)
    }

    /// Whether a launch at `now` must make the forced refresh call (one call, its new images shown
    /// first): when the newest row is older than `refreshAfter`, i.e. `now − newest > refreshAfter`.
    /// An empty store (`nil`) needs no refresh: `callsToMake` fills it. O(1).
    public func needsRefresh(newestCreatedAt: Int64?, now: Int64) -> Bool {
        guard let newest = newestCreatedAt else { return false }
        return now - newest > refreshAfter
    }

    /// Throws an `InputError` naming the first field out of range; `source` names where the
    /// rules came from.
    public func validate(source: String) throws {
        for (field, value) in [("fillBelow", fillBelow), ("maxCallsPerRefill", maxCallsPerRefill),
                               ("stopAbove", stopAbove), ("maxRows", maxRows)] where value <= 0 {
            throw InputError(source: source, field: field, "expected a positive count, found \(value)")
        }
        guard (0...fillBelow).contains(refillBelow) else {
            throw InputError(source: source, field: "refillBelow", "expected a count in 0...fillBelow (\(fillBelow)), found \(refillBelow)")
        }
        guard refreshAfter > 0 else {
            throw InputError(source: source, field: "refreshAfter", "expected a positive duration in ns, found \(refreshAfter)")
        }
    }
}
