/// The launch's display list: the feed's items in the order they appear on screen, each once,
/// and how far down the user has come. Items are only ever appended within a launch; the other
/// parts index their per-item state as this list.
struct FeedList {
    private(set) var items: [ImageDescriptor] = []
    /// Each item's index in `items`, by URL: looked up, never iterated for output.
    private var indices: [UInt64: Int] = [:]
    /// The furthest item shown so far (-1 before any).
    private(set) var furthestDisplayed = -1

    var count: Int { items.count }
    subscript(index: Int) -> ImageDescriptor { items[index] }

    /// Items not yet reached: after the furthest shown. O(1).
    var ahead: Int { items.count - (furthestDisplayed + 1) }

    /// The index of the item with `url`, if the list holds it. O(1).
    func index(of url: UInt64) -> Int? { indices[url] }

    /// Appends `image` unless the list holds it; returns whether it did. Amortized O(1).
    mutating func append(_ image: ImageDescriptor) -> Bool {
        guard indices[image.url] == nil else { return false }
        indices[image.url] = items.count
        items.append(image)
        return true
    }

    /// Item `index` was shown. O(1).
    mutating func displayed(_ index: Int) { furthestDisplayed = max(furthestDisplayed, index) }
}
