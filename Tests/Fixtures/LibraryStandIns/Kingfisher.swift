// A stand-in for Kingfisher 8.11.0, for the tests that compile FeedBench's settings: only the
// declarations those settings use, named and typed as in Kingfisher's sources
// (docs/libraries.md cites the files), defaults included. It keeps what is set and reports
// what is prefetched.
import Foundation

/// Sources/General/KFCrossPlatform.swift (UIImage on iOS)
public final class KFCrossPlatformImage {}

/// Sources/Cache/ImageCache.swift
open class ImageCache {
    public static let `default` = ImageCache()
    public let memoryStorage = MemoryStorage.Backend<KFCrossPlatformImage>()
    public let diskStorage = DiskStorage.Backend<Data>()
}

/// Sources/Cache/MemoryStorage.swift
public enum MemoryStorage {
    public final class Backend<T> {
        public var config = Config(totalCostLimit: 0)
    }

    public struct Config {
        public var totalCostLimit: Int
        public var countLimit: Int = .max
        public var cleanInterval: TimeInterval

        public init(totalCostLimit: Int, cleanInterval: TimeInterval = 120) {
            self.totalCostLimit = totalCostLimit
            self.cleanInterval = cleanInterval
        }
    }
}

/// Sources/Cache/DiskStorage.swift
public enum DiskStorage {
    public final class Backend<T> {
        public var config = Config()
    }

    public struct Config {
        public var sizeLimit: UInt = 0
    }
}

/// Sources/Image/ImageProcessor.swift
public protocol ImageProcessor {}

public struct DownsamplingImageProcessor: ImageProcessor {
    public init(size: CGSize) {}
}

/// Sources/General/KingfisherOptionsInfo.swift
public typealias KingfisherOptionsInfo = [KingfisherOptionsInfoItem]

public enum KingfisherOptionsInfoItem {
    case backgroundDecode
    case scaleFactor(CGFloat)
    case processor(any ImageProcessor)
    case loadDiskFileSynchronously
}

/// Sources/General/KingfisherManager.swift
public class KingfisherManager {
    public static let shared = KingfisherManager()
    public var defaultOptions: KingfisherOptionsInfo = []
}

/// Sources/Networking/ImagePrefetcher.swift
public class ImagePrefetcher {
    public var maxConcurrentDownloads = 5
    let count: Int

    public init(urls: [URL], options: KingfisherOptionsInfo? = nil) {
        count = urls.count
    }

    public func start() {
        print("prefetching \(count)")
    }

    public func stop() {}
}
