import Foundation

/// A class of device the feed runs on: its screen and grid, its memory limits and how fast it
/// reads and decodes images. The built-in profiles carry docs/facts.md#device-profiles' figures;
/// teams bring their own as JSON (`--profile my-phone.json`, see `DeviceProfile.load(path:)`).
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
    /// Main-thread time to configure and lay out one cell coming on screen (the memory-cache
    /// lookup and setting an already decoded image included). Apple's only figure is "a couple
    /// of milliseconds" for layout (Tech Talk 10855); the built-in profiles take 2 ms on the
    /// low-end phone and scale it by the decoder's speed (`standardCellConfiguration`).
    public var cellConfigurationTime: Int64

    public init(name: String, model: String, screenWidth: Double, screenHeight: Double, scale: Double, refreshRate: Int,
                columns: Int, ramBytes: Int64, memoryWarningBytes: Int64, jetsamLimitBytes: Int64, decodeBytesPerSecond: Int64,
                diskReadBytesPerSecond: Int64, diskReadLatency: Int64, defaultNetwork: String, memoryCacheBytes: Int64,
                diskCacheBytes: Int64, cellConfigurationTime: Int64? = nil) {
        (self.name, self.model, self.screenWidth, self.screenHeight, self.scale) = (name, model, screenWidth, screenHeight, scale)
        (self.refreshRate, self.columns, self.ramBytes) = (refreshRate, columns, ramBytes)
        (self.memoryWarningBytes, self.jetsamLimitBytes) = (memoryWarningBytes, jetsamLimitBytes)
        (self.decodeBytesPerSecond, self.diskReadBytesPerSecond, self.diskReadLatency) = (decodeBytesPerSecond, diskReadBytesPerSecond, diskReadLatency)
        (self.defaultNetwork, self.memoryCacheBytes, self.diskCacheBytes) = (defaultNetwork, memoryCacheBytes, diskCacheBytes)
        self.cellConfigurationTime = cellConfigurationTime ?? Self.standardCellConfiguration(decodeBytesPerSecond: decodeBytesPerSecond)
    }

    /// The cell-configuration time a profile gets unless it gives one: 2 ms at the low-end
    /// phone's decoder speed (250 MiB/s), shorter in proportion on faster devices. O(1).
    public static func standardCellConfiguration(decodeBytesPerSecond: Int64) -> Int64 {
        2_000_000 * 250 * (1 << 20) / decodeBytesPerSecond
    }

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

    /// Reads a profile from a JSON file (see `init(json:source:)`).
    public static func load(path: String) throws -> DeviceProfile {
        try DeviceProfile(json: ReadableFile.bytes(at: path, maxBytes: ReadableFile.documentLimit), source: path)
    }

    /// The largest size a profile may give (1 TiB): far beyond any phone, and small enough
    /// that the simulator's arithmetic on sizes and times cannot overflow.
    public static let maximumBytes: Int64 = 1 << 40

    /// The fields of a profile JSON object, in the order docs/model.md lists them.
    public static let jsonFields = [
        "name", "model", "screenWidth", "screenHeight", "scale", "refreshRate", "columns", "ramBytes",
        "memoryWarningBytes", "jetsamLimitBytes", "decodeBytesPerSecond", "diskReadBytesPerSecond",
        "diskReadLatency", "defaultNetwork", "memoryCacheBytes", "diskCacheBytes", "cellConfigurationTime",
    ]

    /// The fields a profile JSON may leave out (files written before they existed): a missing
    /// `cellConfigurationTime` is `standardCellConfiguration` of the file's decoder speed.
    public static let optionalJSONFields: Set<String> = ["cellConfigurationTime"]

    /// Parses a profile from JSON bytes: one object with every field of `jsonFields` and no
    /// other (names as in the Swift type, sizes in bytes, times in nanoseconds), each checked
    /// for its type and range. Every refusal names `source`, the line and the field.
    public init(json bytes: [UInt8], source: String) throws {
        let object = try FlatJSONObject(parsing: bytes, source: source)
        var fields: [String: FlatJSONObject.Field] = [:]
        for field in object.fields {
            guard Self.jsonFields.contains(field.key) else {
                throw InputError(source: source, line: field.line, field: field.key,
                                 "expected one of the profile fields (\(Self.jsonFields.joined(separator: ", "))), found an unknown one")
            }
            fields[field.key] = field
        }
        if let missing = Self.jsonFields.first(where: { fields[$0] == nil && !Self.optionalJSONFields.contains($0) }) {
            throw InputError(source: source, line: object.closingLine, field: missing,
                             "expected every field of a profile (see docs/model.md), found this one missing")
        }
        func field(_ name: String) -> FlatJSONObject.Field { fields[name]! }
        func refuse(_ name: String, _ expected: String) -> InputError {
            let field = field(name)
            let found: String
            switch field.value {
            case .string(let text): found = "the string " + InputError.quote(text)
            case .number(let text): found = InputError.quote(text)
            }
            return InputError(source: source, line: field.line, field: name, "expected \(expected), found \(found)")
        }
        func text(_ name: String, _ expected: String, _ accept: (String) -> Bool) throws -> String {
            guard case .string(let value) = field(name).value, accept(value) else { throw refuse(name, expected) }
            return value
        }
        func integer(_ name: String, _ range: ClosedRange<Int64>, _ unit: String) throws -> Int64 {
            guard case .number(let value) = field(name).value, let number = Int64(value), range.contains(number) else {
                throw refuse(name, "an integer \(unit) in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        func real(_ name: String, _ range: ClosedRange<Double>, _ unit: String) throws -> Double {
            guard case .number(let value) = field(name).value, let number = Double(value), range.contains(number) else {
                throw refuse(name, "a number of \(unit) in \(Self.describe(range.lowerBound))...\(Self.describe(range.upperBound))")
            }
            return number
        }
        let sizes: ClosedRange<Int64> = 1...Self.maximumBytes
        let rates: ClosedRange<Int64> = 1_000_000...1_000_000_000_000
        let networks = NetworkProfile.builtIn.map(\.name)
        self.init(
            name: try text("name", "1 to 64 letters, digits, '.', '_' or '-', not starting with '.' (it names results/<name>.csv)") { name in
                (1...64).contains(name.utf8.count) && !name.hasPrefix(".")
                    && name.utf8.allSatisfy { byte in
                        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    }
            },
            model: try text("model", "a description of up to 200 bytes without control characters") { model in
                model.utf8.count <= 200 && model.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
            },
            screenWidth: try real("screenWidth", 1...10_000, "points"),
            screenHeight: try real("screenHeight", 1...10_000, "points"),
            scale: try real("scale", 1...4, "pixels per point"),
            refreshRate: Int(try integer("refreshRate", 24...240, "of frames per second")),
            columns: Int(try integer("columns", 1...8, "count of columns")),
            ramBytes: try integer("ramBytes", sizes, "of bytes"),
            memoryWarningBytes: try integer("memoryWarningBytes", sizes, "of bytes"),
            jetsamLimitBytes: try integer("jetsamLimitBytes", sizes, "of bytes"),
            decodeBytesPerSecond: try integer("decodeBytesPerSecond", rates, "of bytes per second"),
            diskReadBytesPerSecond: try integer("diskReadBytesPerSecond", rates, "of bytes per second"),
            diskReadLatency: try integer("diskReadLatency", 0...60_000_000_000, "of nanoseconds"),
            defaultNetwork: try text("defaultNetwork", "one of \(networks.joined(separator: ", "))") { networks.contains($0) },
            memoryCacheBytes: try integer("memoryCacheBytes", sizes, "of bytes"),
            diskCacheBytes: try integer("diskCacheBytes", sizes, "of bytes"),
            cellConfigurationTime: fields["cellConfigurationTime"] == nil ? nil
                : try integer("cellConfigurationTime", 0...1_000_000_000, "of nanoseconds"))
        guard jetsamLimitBytes >= memoryWarningBytes else {
            throw refuse("jetsamLimitBytes", "a size no smaller than memoryWarningBytes (\(memoryWarningBytes))")
        }
    }

    /// `1`, `10000`, `0.5`: a range bound without a needless `.0`.
    static func describe(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int64(bound)) : String(bound)
    }
}
