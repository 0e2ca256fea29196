import Foundation

/// A class of device the feed runs on: its screen and grid, its memory limits and how fast it
/// reads and decodes images. The built-in profiles carry DESIGN.md §5's figures; teams bring
/// their own as JSON (`--profile my-phone.json`, see `DeviceProfile.load(path:)`).
///
/// Sizes are bytes, speeds bytes per second, times nanoseconds, lengths points.
public struct DeviceProfile: Sendable, Hashable, Codable {
    /// The name results carry in their `profile` column.
    public var name: String
    /// The hardware it stands for, for reports (`iPhone SE (2nd gen)`).
    public var model: String
    public var screenWidth: Double
    public var screenHeight: Double
    /// Pixels per point.
    public var scale: Double
    /// Frames per second.
    public var refreshRate: Int
    /// Cells per row of the feed grid; cells are square, `screenWidth / columns` points wide.
    public var columns: Int
    public var ramBytes: Int64
    /// Tracked memory above this gets a memory warning (the app clears its memory cache).
    public var memoryWarningBytes: Int64
    /// Tracked memory above this gets the app killed (jetsam).
    public var jetsamLimitBytes: Int64
    /// Decoded bitmap bytes produced per second by the image decoder.
    public var decodeBytesPerSecond: Int64
    /// Disk-cache read throughput, and the fixed latency of one read.
    public var diskReadBytesPerSecond: Int64
    public var diskReadLatency: Int64
    /// The network used when a run names none (a `NetworkProfile` name).
    public var defaultNetwork: String
    /// The memory-cache cost limit used when a run names none.
    public var memoryCacheBytes: Int64
    /// The disk-cache size limit used when a run names none.
    public var diskCacheBytes: Int64

    /// The side of a cell, in points.
    public var cellSide: Double { screenWidth / Double(columns) }
    /// The side of a cell, in pixels (the size a downsampled bitmap is decoded to).
    public var cellPixels: Int { Int((cellSide * scale).rounded()) }
    /// Nanoseconds between frames.
    public var frameInterval: Int64 { (1_000_000_000 + Int64(refreshRate) / 2) / Int64(refreshRate) }
}

extension DeviceProfile {
    static let gigabyte: Int64 = 1 << 30
    static let megabyte: Int64 = 1 << 20

    /// iPhone SE (2nd gen): 3 GB, 375×667 @2x, 60 Hz, ≈1.4 GB app limit; one full-width column
    /// (a cell bitmap is 750×750×4 ≈ 2.25 MB).
    public static let lowEnd = DeviceProfile(
        name: "low-end", model: "iPhone SE (2nd gen)", screenWidth: 375, screenHeight: 667, scale: 2,
        refreshRate: 60, columns: 1, ramBytes: 3 * gigabyte,
        memoryWarningBytes: 1_000 * megabyte, jetsamLimitBytes: 1_400 * megabyte,
        decodeBytesPerSecond: 250 * megabyte, diskReadBytesPerSecond: 800 * megabyte, diskReadLatency: 300_000,
        defaultNetwork: "lte", memoryCacheBytes: 450 * megabyte, diskCacheBytes: 150 * megabyte)

    /// iPhone 13: 4 GB, 390×844 @3x, 60 Hz, ≈2.0 GB app limit; one full-width column
    /// (a cell bitmap is 1170×1170×4 ≈ 5.5 MB).
    public static let mid = DeviceProfile(
        name: "mid", model: "iPhone 13", screenWidth: 390, screenHeight: 844, scale: 3,
        refreshRate: 60, columns: 1, ramBytes: 4 * gigabyte,
        memoryWarningBytes: 1_400 * megabyte, jetsamLimitBytes: 2_000 * megabyte,
        decodeBytesPerSecond: 400 * megabyte, diskReadBytesPerSecond: 1_200 * megabyte, diskReadLatency: 200_000,
        defaultNetwork: "lte", memoryCacheBytes: 600 * megabyte, diskCacheBytes: 150 * megabyte)

    /// iPhone 15 Pro: 8 GB, 393×852 @3x, 120 Hz, ≈3.3 GB app limit; one full-width column.
    public static let highEnd = DeviceProfile(
        name: "high-end", model: "iPhone 15 Pro", screenWidth: 393, screenHeight: 852, scale: 3,
        refreshRate: 120, columns: 1, ramBytes: 8 * gigabyte,
        memoryWarningBytes: 2_300 * megabyte, jetsamLimitBytes: 3_300 * megabyte,
        decodeBytesPerSecond: 600 * megabyte, diskReadBytesPerSecond: 2_000 * megabyte, diskReadLatency: 150_000,
        defaultNetwork: "wifi", memoryCacheBytes: 768 * megabyte, diskCacheBytes: 150 * megabyte)

    /// iPad Pro 11" (M-series): 8 GB, 834×1194 @2x, 120 Hz, ≈5 GB app limit; three columns.
    public static let tablet = DeviceProfile(
        name: "tablet", model: "iPad Pro 11\" (M-series)", screenWidth: 834, screenHeight: 1194, scale: 2,
        refreshRate: 120, columns: 3, ramBytes: 8 * gigabyte,
        memoryWarningBytes: 3_500 * megabyte, jetsamLimitBytes: 5_000 * megabyte,
        decodeBytesPerSecond: 800 * megabyte, diskReadBytesPerSecond: 2_500 * megabyte, diskReadLatency: 150_000,
        defaultNetwork: "wifi", memoryCacheBytes: 768 * megabyte, diskCacheBytes: 150 * megabyte)

    /// The built-in profiles, in the order reports list them.
    public static let builtIn: [DeviceProfile] = [lowEnd, mid, highEnd, tablet]

    /// A built-in profile by name, or a profile JSON file by path (anything ending in `.json`).
    public static func named(_ text: String) throws -> DeviceProfile {
        if text.hasSuffix(".json") { return try load(path: text) }
        if let profile = builtIn.first(where: { $0.name == text }) { return profile }
        throw InputError(source: "--profile", "unknown profile \(InputError.quote(text)); expected one of \(builtIn.map(\.name).joined(separator: ", ")) or a .json file")
    }

    /// Reads a profile from JSON: an object with every field of `DeviceProfile` (names as in
    /// the Swift type, sizes in bytes, times in nanoseconds), validated field by field.
    public static func load(path: String) throws -> DeviceProfile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(source: path, "cannot read the profile file")
        }
        let profile: DeviceProfile
        do {
            profile = try JSONDecoder().decode(DeviceProfile.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw InputError(source: path, field: key.stringValue, "missing; every field of a profile is required (see README)")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw InputError(source: path, field: context.codingPath.map(\.stringValue).joined(separator: "."), "expected a \(context.debugDescription.lowercased())")
        } catch let DecodingError.dataCorrupted(context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw InputError(source: path, field: field.isEmpty ? nil : field, "expected a JSON object of profile fields: \(context.debugDescription)")
        } catch {
            throw InputError(source: path, "expected a JSON object of profile fields")
        }
        try profile.validate(source: path)
        return profile
    }

    /// Checks every field's range; throws naming the first bad field.
    public func validate(source: String) throws {
        func check(_ ok: Bool, _ field: String, _ expected: String) throws {
            if !ok { throw InputError(source: source, field: field, "expected \(expected)") }
        }
        try check(!name.isEmpty && !name.contains(","), "name", "a non-empty name without commas")
        try check(screenWidth > 0 && screenWidth <= 10_000, "screenWidth", "points in (0, 10000]")
        try check(screenHeight > 0 && screenHeight <= 10_000, "screenHeight", "points in (0, 10000]")
        try check(scale >= 1 && scale <= 4, "scale", "a scale in [1, 4]")
        try check((24...240).contains(refreshRate), "refreshRate", "frames per second in 24...240")
        try check((1...8).contains(columns), "columns", "1...8 columns")
        try check(ramBytes > 0, "ramBytes", "a positive size")
        try check(memoryWarningBytes > 0, "memoryWarningBytes", "a positive size")
        try check(jetsamLimitBytes >= memoryWarningBytes, "jetsamLimitBytes", "a size no smaller than memoryWarningBytes")
        try check(decodeBytesPerSecond > 0, "decodeBytesPerSecond", "a positive rate")
        try check(diskReadBytesPerSecond > 0, "diskReadBytesPerSecond", "a positive rate")
        try check(diskReadLatency >= 0, "diskReadLatency", "a non-negative time in nanoseconds")
        try check(NetworkProfile.builtIn.contains { $0.name == defaultNetwork }, "defaultNetwork",
                  "one of \(NetworkProfile.builtIn.map(\.name).joined(separator: ", "))")
        try check(memoryCacheBytes > 0, "memoryCacheBytes", "a positive size")
        try check(diskCacheBytes > 0, "diskCacheBytes", "a positive size")
    }
}
