/// The finite set of images the mock feed API draws its pages from: ids `0..<size`, each with a
/// fixed size drawn once from `sizes`.
///
/// A descriptor is a pure function of (`seed`, id) — its own generator stream per id — so the
/// catalog stores nothing, any image can be described in any order, and the same image has the
/// same size in every launch, run and process. The catalog's size sets how often the random API
/// repeats itself: once n distinct images are known, a uniform draw is new with probability
/// 1 − n / `size`. The feed asks for each image at `requestedWidth` pixels (`nil`: the
/// original), and the catalog describes images as the server then sends them.
public struct ImageCatalog: Sendable, Hashable {
    /// The number of distinct images.
    public let size: Int
    public let seed: UInt64
    public let sizes: ImageSizes
    /// The width the feed asks for, in pixels (`ImageWidth`); `nil`: the original.
    public var requestedWidth: Int?

    public init(size: Int = 5_000, seed: UInt64, sizes: ImageSizes = .photoFeed) {
        precondition(size > 0, "ImageCatalog: size must be positive")
        self.size = size
        self.seed = seed
        self.sizes = sizes
    }

    /// The image with id `id`, which must be in `0..<size`, as the server sends it at
    /// `requestedWidth`. O(1): seeds one generator and draws four numbers.
    public func descriptor(_ id: UInt64) -> ImageDescriptor {
        precondition(id < UInt64(size), "ImageCatalog: id \(id) outside 0..<\(size)")
        var generator = SeededGenerator(seed: seed, stream: id)
        return sizes.sample(url: id, using: &generator).served(width: requestedWidth)
    }
}
