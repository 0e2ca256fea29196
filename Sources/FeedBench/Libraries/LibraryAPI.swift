/// The Swift an app writes to set each knob FeedBench searches, in one library's own API, with
/// every name taken from the library's sources at the version its preset follows
/// (docs/libraries.md cites the files): Nuke 13.2.0, Kingfisher 8.11.0, SDWebImage 5.21.5.
///
/// Each piece is built from expressions, so the summary (literal values) and `bench apply`'s
/// file (the fields of its settings) spell the API the same way. Free names: `entering` and
/// `leaving` (`[URL]`, the items that came into the prefetch window and left it since it last
/// moved), `url` (`URL`), `cellSize` (`CGSize`, the cell in points) and `screenScale` (`CGFloat`).
extension ImageLibrary {
    /// The module an app imports.
    public var module: String {
        switch self {
        case .nuke: "Nuke"
        case .kingfisher: "Kingfisher"
        case .sdwebimage: "SDWebImage"
        }
    }

    /// The library's two caches.
    enum Cache {
        case memory
        case disk
    }

    /// The statement that sets `cache`'s limit to `bytes` (an `Int` expression): the memory
    /// cache's cost limit, the disk cache's size limit.
    func limitStatement(_ cache: Cache, bytes: String) -> String {
        switch (self, cache) {
        case (.nuke, .memory): "ImageCache.shared.costLimit = \(bytes)"
        case (.nuke, .disk): "DataLoader.sharedUrlCache.diskCapacity = \(bytes)"
        case (.kingfisher, .memory): "ImageCache.default.memoryStorage.config.totalCostLimit = \(bytes)"
        case (.kingfisher, .disk): "ImageCache.default.diskStorage.config.sizeLimit = UInt(\(bytes))"
        case (.sdwebimage, .memory): "SDImageCache.shared.config.maxMemoryCost = UInt(\(bytes))"
        case (.sdwebimage, .disk): "SDImageCache.shared.config.maxDiskSize = UInt(\(bytes))"
        }
    }

    /// The library's own cost limit in words.
    var defaultCostLimit: String {
        switch self {
        case .nuke: "15 % of RAM, at most 768 MiB (ImageCache.defaultCostLimit)"
        case .kingfisher: "a quarter of RAM"
        case .sdwebimage: "0, no limit"
        }
    }

    /// Whether a setting is on: known when the Swift is written (the summary's), or a `Bool`
    /// expression (a field of `bench apply`'s settings).
    enum Condition {
        case on
        case off
        case when(String)

        init(_ value: Bool) { self = value ? .on : .off }
    }

    /// The decoding options a request carries, as a value of the type `decodingType` names:
    /// downsampled to the cell when `downsamples`, decoded off the main thread when
    /// `decodesInBackground` (Kingfisher's `.backgroundDecode`; the others always do).
    func decodingValue(downsamples: Condition, decodesInBackground: Condition) -> String {
        switch self {
        case .nuke:
            Self.choose("[ImageProcessors.Resize(size: cellSize)]", else: "[]", downsamples)
        case .kingfisher:
            Self.concatenate([(".processor(DownsamplingImageProcessor(size: cellSize)), .scaleFactor(screenScale)", downsamples),
                              (".backgroundDecode", decodesInBackground)])
        case .sdwebimage:
            Self.choose("[.imageThumbnailPixelSize: CGSize(width: cellSize.width * screenScale, height: cellSize.height * screenScale)]",
                        else: "[:]", downsamples)
        }
    }

    /// `value` when `condition` holds, else `empty`.
    static func choose(_ value: String, else empty: String, _ condition: Condition) -> String {
        switch condition {
        case .on: value
        case .off: empty
        case let .when(expression): "\(expression) ? \(value) : \(empty)"
        }
    }

    /// An array literal of the items whose condition holds.
    static func concatenate(_ parts: [(items: String, condition: Condition)]) -> String {
        var known: [String] = []
        var conditional: [String] = []
        for part in parts {
            switch part.condition {
            case .on: known.append(part.items)
            case .off: break
            case let .when(expression): conditional.append("(\(expression) ? [\(part.items)] : [])")
            }
        }
        let literal = "[" + known.joined(separator: ", ") + "]"
        guard !conditional.isEmpty else { return literal }
        return ((known.isEmpty ? [] : [literal]) + conditional).joined(separator: " + ")
    }

    /// The type of `decodingValue`.
    var decodingType: String {
        switch self {
        case .nuke: "[any ImageProcessing]"
        case .kingfisher: "KingfisherOptionsInfo"
        case .sdwebimage: "[SDWebImageContextOption: Any]"
        }
    }

    /// What a view's request does with the decoding options (`decoding`, named by a `let`).
    var decodingUse: String {
        switch self {
        case .nuke: "let request = ImageRequest(url: url, processors: decoding)"
        case .kingfisher: "KingfisherManager.shared.defaultOptions = decoding"
        case .sdwebimage: "_ = decoding // the context of sd_setImage(with:placeholderImage:options:context:)"
        }
    }

    /// Where the prefetcher's concurrency is set, and the statement that sets it to
    /// `concurrency` (an `Int` expression).
    enum PrefetcherSetUp {
        /// Once at launch, on the shared prefetcher (SDWebImage).
        case atLaunch(String)
        /// In the app's own prefetcher, kept while the feed is on screen as `prefetcher`: its
        /// type and the expression that makes it (Nuke).
        case appsOwn(type: String, make: String)
        /// On each batch's prefetcher, in `windowStatements` (Kingfisher: a stopped one
        /// cannot restart).
        case perBatch
    }

    func prefetcherSetUp(concurrency: String) -> PrefetcherSetUp {
        switch self {
        case .nuke: .appsOwn(type: "ImagePrefetcher", make: "ImagePrefetcher(maxConcurrentRequestCount: \(concurrency))")
        case .kingfisher: .perBatch
        case .sdwebimage: .atLaunch("SDWebImagePrefetcher.shared.maxConcurrentPrefetchCount = UInt(\(concurrency))")
        }
    }

    /// What the app keeps beside the prefetcher while the feed is on screen, as declarations:
    /// SDWebImage's token for each URL handed over, so that one that left the window can be
    /// cancelled alone.
    var windowState: [String] {
        switch self {
        case .nuke, .kingfisher: []
        case .sdwebimage: ["var tokens: [URL: SDWebImagePrefetchToken] = [:]"]
        }
    }

    /// The statements that move the prefetch window, with the decoding options `decoding`:
    /// `stop` releases `leaving` (`[URL]`, the items that left the window), `start` hands over
    /// `entering` (the items that came into it, nearest first) as one batch — as the run
    /// simulates each library's prefetcher (`PrefetchSettings`). Nuke's and SDWebImage's stop
    /// what left (a token per URL: SDWebImage cancels by token); Kingfisher gets a prefetcher
    /// per batch, never stopped, running `concurrency` at once.
    func windowStatements(concurrency: String) -> (stop: [String], start: [String]) {
        switch self {
        case .nuke:
            (["prefetcher.stopPrefetching(with: leaving.map { ImageRequest(url: $0, processors: decoding) })"],
             ["prefetcher.startPrefetching(with: entering.map { ImageRequest(url: $0, processors: decoding) })"])
        case .kingfisher:
            ([], ["let batch = ImagePrefetcher(urls: entering, options: decoding)",
                  "batch.maxConcurrentDownloads = \(concurrency)", "batch.start()"])
        case .sdwebimage:
            (["for url in leaving { tokens.removeValue(forKey: url)?.cancel() }"],
             ["for url in entering { tokens[url] = SDWebImagePrefetcher.shared.prefetchURLs([url], options: [], context: decoding, progress: nil, completed: nil) }"])
        }
    }

    /// The library's own disk cache in words.
    var diskCache: String {
        switch self {
        case .nuke: "URLCache (DataLoader.sharedUrlCache), 150 MiB"
        case .kingfisher: "ImageCache.default.diskStorage.config.sizeLimit 0 (no limit), entries expire after 7 days"
        case .sdwebimage: "SDImageCache.shared.config.maxDiskSize 0 (no limit), maxDiskAge 7 days"
        }
    }

    /// What the library cannot be told that bears on the answer.
    var cannotExpress: [String] {
        switch self {
        case .nuke:
            ["the memory cache's eviction order: it is Nuke's own, which the nuke preset follows"]
        case .kingfisher, .sdwebimage:
            ["the memory cache's eviction order, and NSCache treats the cost limit as a hint: it may evict before it is reached"]
        }
    }
}
