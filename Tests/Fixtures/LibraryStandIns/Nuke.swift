// A stand-in for Nuke 13.2.0, for the tests that compile FeedBench's settings: only the
// declarations those settings use, named and typed as in Nuke's sources (docs/libraries.md
// cites the files), defaults included. It keeps what is set and reports what is prefetched.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sources/Nuke/Caching/ImageCache.swift
public final class ImageCache {
    public static let shared = ImageCache()
    public var costLimit: Int
    public var countLimit: Int
    public var ttl: TimeInterval?
    public var entryCostLimit: Double = 0.1
    /// 15 % of the physical memory, at most 768 MiB; a stand-in has no device, so 0.
    public static var defaultCostLimit: Int { 0 }

    public init(costLimit: Int = ImageCache.defaultCostLimit, countLimit: Int = Int.max) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }
}

/// Sources/Nuke/Processing/ImageProcessing.swift
public protocol ImageProcessing {}

/// Sources/Nuke/Processing/ImageProcessors.swift, ImageProcessors+Resize.swift
public enum ImageProcessors {
    public struct Resize: ImageProcessing {
        public init(size: CGSize, crop: Bool = false, upscale: Bool = false) {}
    }
}

/// Sources/Nuke/ImageRequest.swift
public struct ImageRequest {
    public init(url: URL?, processors: [any ImageProcessing] = []) {}
}

/// Sources/Nuke/Loading/DataLoader.swift: the default pipeline's disk cache, 150 MiB.
public final class DataLoader {
    public static let sharedUrlCache: URLCache = URLCache(memoryCapacity: 0, diskCapacity: 150 * 1_048_576, diskPath: nil)
}

/// Sources/Nuke/Prefetching/ImagePrefetcher.swift
public final class ImagePrefetcher {
    public init(maxConcurrentRequestCount: Int = 2) {}

    public func startPrefetching(with urls: [URL]) {
        print("prefetching \(urls.count)")
    }

    public func startPrefetching(with requests: [ImageRequest]) {
        print("prefetching \(requests.count)")
    }

    public func stopPrefetching(with urls: [URL]) {
        if !urls.isEmpty { print("stopping \(urls.count)") }
    }

    public func stopPrefetching(with requests: [ImageRequest]) {
        if !requests.isEmpty { print("stopping \(requests.count)") }
    }

    public func stopPrefetching() {
        print("stopping every prefetch")
    }
}
