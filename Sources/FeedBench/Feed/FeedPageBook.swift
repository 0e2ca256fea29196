/// The feed API's pages by number: page n (from 1) is the n-th call's page of a `MockFeedAPI`
/// with the same seed and catalogue — ten ids drawn uniformly from the catalogue on the API's
/// page stream — whatever the call's latency or fault. `bench serve` answers `page=n` from it,
/// so a real client sees the simulated feed image for image.
///
/// Pages are drawn in order and kept: O(10) per new page, O(1) for one already drawn.
public struct FeedPageBook: Sendable {
    public let catalog: ImageCatalog
    var random: SeededGenerator
    var ids: [UInt64] = []

    public init(catalog: ImageCatalog, seed: UInt64) {
        self.catalog = catalog
        random = SeededGenerator(seed: seed, stream: MockFeedAPI.pageStream)
    }

    /// The next page's ids, drawn from the stream (what `MockFeedAPI` draws for each call).
    static func draw(from random: inout SeededGenerator, catalog: ImageCatalog) -> [UInt64] {
        (0..<FeedAPIConfiguration.pageSize).map { _ in random.next(below: UInt64(catalog.size)) }
    }

    /// Page `number` (from 1). O(10 × pages not drawn yet).
    public mutating func page(_ number: Int) -> [ImageDescriptor] {
        precondition(number >= 1, "FeedPageBook: pages are numbered from 1")
        while ids.count < number * FeedAPIConfiguration.pageSize { ids += Self.draw(from: &random, catalog: catalog) }
        return ids[((number - 1) * FeedAPIConfiguration.pageSize)..<(number * FeedAPIConfiguration.pageSize)].map(catalog.descriptor)
    }
}
