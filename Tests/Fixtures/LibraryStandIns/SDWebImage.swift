// A stand-in for SDWebImage 5.21.5, for the tests that compile FeedBench's settings: only the
// declarations those settings use, as Swift imports them from SDWebImage's Objective-C headers
// (docs/libraries.md cites the files), defaults included. It keeps what is set and reports
// what is prefetched.
import Foundation

/// SDWebImage/Core/SDImageCacheConfig.h
public final class SDImageCacheConfig {
    public static let `default` = SDImageCacheConfig()
    public var maxMemoryCost: UInt = 0
    public var maxMemoryCount: UInt = 0
    public var maxDiskSize: UInt = 0
    public var maxDiskAge: TimeInterval = 60 * 60 * 24 * 7
    public var shouldUseWeakMemoryCache = false
}

/// SDWebImage/Core/SDImageCache.h
public final class SDImageCache {
    public static let shared = SDImageCache()
    public let config = SDImageCacheConfig()
}

/// SDWebImage/Core/SDWebImageDefine.h
public struct SDWebImageContextOption: Hashable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let imageThumbnailPixelSize = SDWebImageContextOption(rawValue: "imageThumbnailPixelSize")
}

public typealias SDWebImageContext = [SDWebImageContextOption: Any]

public struct SDWebImageOptions: OptionSet {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let lowPriority = SDWebImageOptions(rawValue: 1 << 1)
}

/// SDWebImage/Core/SDWebImagePrefetcher.h
public typealias SDWebImagePrefetcherProgressBlock = (UInt, UInt) -> Void
public typealias SDWebImagePrefetcherCompletionBlock = (UInt, UInt) -> Void

public final class SDWebImagePrefetchToken {
    public func cancel() {
        print("stopping 1")
    }
}

public final class SDWebImagePrefetcher {
    public static let shared = SDWebImagePrefetcher()
    public var maxConcurrentPrefetchCount: UInt = 3

    @discardableResult
    public func prefetchURLs(_ urls: [URL]?) -> SDWebImagePrefetchToken? {
        print("prefetching \(urls?.count ?? 0)")
        return SDWebImagePrefetchToken()
    }

    @discardableResult
    public func prefetchURLs(_ urls: [URL]?, options: SDWebImageOptions, context: SDWebImageContext?,
                             progress: SDWebImagePrefetcherProgressBlock?, completed: SDWebImagePrefetcherCompletionBlock?) -> SDWebImagePrefetchToken? {
        print("prefetching \(urls?.count ?? 0)")
        return SDWebImagePrefetchToken()
    }

    public func cancelPrefetching() {}
}
