import Foundation

/// A team's own traffic as the simulator's inputs — the network, the feed API's models and the
/// images' sizes — fitted by `bench calibrate` from a capture and read by `bench run`, `sweep`
/// and `tune --workload FILE` in place of the built-in network preset, API models and photo
/// feed. The file is JSON, one section a line, keys in a fixed order:
///
///     {"format": "feedbench-workload/1",
///      "network": {…the conditions' network object…},
///      "api": {…the conditions' api object…},
///      "images": {"bytesQuantiles": [40000, …, 600000], "dimensions": [[1080, 1350, 41], …]},
///      "fit": {"entries": 292, "apiCalls": 15, …}}
///
/// `network` and `api` are `ServeConditions`' objects (every network field required); `images`
/// is `MeasuredImageSizes`; `fit` (optional) records what the fit saw and how well it fitted, and
/// changes no run. Writing is canonical — a workload written, read and written again is
/// byte-identical — and `id`, a 64-bit FNV-1a hash of that text, names the workload in the
/// results' `scenario` column (`;workload=` and its first 8 hex digits).
public struct Workload: Sendable, Hashable {
    public static let format = "feedbench-workload/1"

    public var network: NetworkProfile
    /// The API's models; its catalogue draws sizes from `images`.
    public var api: FeedAPIConfiguration
    public var images: MeasuredImageSizes
    public var fit: CalibrationFit

    public init(network: NetworkProfile, api: FeedAPIConfiguration, images: MeasuredImageSizes, fit: CalibrationFit) {
        self.network = network
        var api = api
        api.catalog = ImageCatalog(size: api.catalog.size, seed: api.catalog.seed, sizes: .measured(images))
        self.api = api
        self.images = images
        self.fit = fit
    }

    /// The canonical text. O(size of the tables).
    public var json: String {
        let quantiles = images.byteQuantiles.map(String.init).joined(separator: ", ")
        let dimensions = images.dimensions.map { "[\($0.width), \($0.height), \($0.count)]" }.joined(separator: ", ")
        return """
            {"format": \(ServeConditions.jsonString(Self.format)),
             "network": \(ServeConditions.json(network)),
             "api": \(ServeConditions.json(api)),
             "images": {"bytesQuantiles": [\(quantiles)], "dimensions": [\(dimensions)]},
             "fit": \(fit.json)}

            """
    }

    /// FNV-1a (64 bits) of `json`, 16 hex digits.
    public var id: String {
        var hash = FNV1a()
        hash.add(bytes: json.utf8)
        return hash.hex
    }

    /// The tag in the `scenario` column: `workload=` and the id's first 8 hex digits.
    public var scenarioTag: String { "workload=" + id.prefix(8) }

    /// Reads the workload file at `path`; refusals name the file and the field.
    public static func read(path: String) throws -> Workload {
        guard let data = try ReadableFile.contents(at: path) else { throw InputError(source: path, "cannot read the workload file") }
        return try Workload(json: data, source: path)
    }

    /// Parses a workload document; `source` names it in refusals.
    public init(json data: Data, source: String) throws {
        let object = try JSONDocumentCheck.parse(data, source: source)
        let reader = ServeConditions.Reader(source: source)
        let root = try reader.object(object, at: "workload")
        try reader.keys(of: root, allowed: ["format", "network", "api", "images", "fit"], at: "")
        guard root["format"] as? String == Self.format else {
            throw InputError(source: source, field: "format", "expected \"\(Self.format)\"")
        }
        guard let networkValue = root["network"], let apiValue = root["api"], let imagesValue = root["images"] else {
            throw InputError(source: source, "expected the sections network, api and images")
        }
        let networkObject = try reader.object(networkValue, at: "network")
        let network = try reader.network(networkObject, base: nil)
        for key in ["name", "bitsPerSecond", "oneWayDelayMs", "loss", "retryTimeoutMs", "connectionsPerHost"] where networkObject[key] == nil {
            throw InputError(source: source, field: "network.\(key)", "expected a value (a workload gives every network field)")
        }
        let api = try reader.api(apiValue, base: FeedAPIConfiguration())
        try api.validate(source: source)

        let imagesObject = try reader.object(imagesValue, at: "images")
        try reader.keys(of: imagesObject, allowed: ["bytesQuantiles", "dimensions"], at: "images")
        guard let quantiles = imagesObject["bytesQuantiles"] as? [Any] else {
            throw InputError(source: source, field: "images.bytesQuantiles", "expected an array of sizes in bytes")
        }
        guard let pairs = imagesObject["dimensions"] as? [Any] else {
            throw InputError(source: source, field: "images.dimensions", "expected an array of [width, height, count]")
        }
        let bytes = try quantiles.enumerated().map { i, value in
            try reader.integer(value, at: "images.bytesQuantiles[\(i)]", in: 1...MeasuredImageSizes.maximumBytes)
        }
        let dimensions = try pairs.enumerated().map { i, value -> MeasuredImageSizes.Dimensions in
            let path = "images.dimensions[\(i)]"
            guard let triple = value as? [Any], triple.count == 3 else { throw InputError(source: source, field: path, "expected [width, height, count]") }
            let numbers = try triple.map { try reader.integer($0, at: path, in: 1...1_000_000_000) }
            return MeasuredImageSizes.Dimensions(width: Int(numbers[0]), height: Int(numbers[1]), count: Int(numbers[2]))
        }
        let images = try MeasuredImageSizes(byteQuantiles: bytes, dimensions: dimensions, source: source)
        let fit = try root["fit"].map { try CalibrationFit(reader.object($0, at: "fit"), reader: reader) } ?? CalibrationFit()
        self.init(network: network, api: api, images: images, fit: fit)
    }
}

/// What a calibration saw and how well its models fit — a workload's `fit` section, written for
/// the reader and for `bench calibrate`'s summary; no run depends on it.
public struct CalibrationFit: Sendable, Hashable {
    /// Requests read from the captures, and how many were API calls and image downloads.
    public var requests = 0
    public var apiCalls = 0
    public var imageDownloads = 0
    /// API calls answered 5xx (failures) and 429 (rate limited).
    public var apiFailures = 0
    public var apiRateLimited = 0
    /// The median number of items in the API's JSON arrays, when the capture holds bodies.
    public var itemsPerPage: Int?
    /// Kolmogorov–Smirnov distances of the log-normal fits to the API's latencies and to the
    /// images' bytes (0 is a perfect fit).
    public var apiLatencyKS: Double?
    public var imageBytesKS: Double?
    /// Where dimensions, round trips and bandwidth came from: `api`, `headers`, `api+headers`,
    /// `assumed`; `connect`, `wait`, `duration`, `assumed`; `receive`, `duration`, `assumed`.
    public var dimensionsFrom = "assumed"
    public var roundTripFrom = "assumed"
    public var bandwidthFrom = "assumed"
    /// The host whose traffic gave the network.
    public var host = ""

    public init() {}

    static let keys = ["requests", "apiCalls", "imageDownloads", "apiFailures", "apiRateLimited", "itemsPerPage", "apiLatencyKS",
                       "imageBytesKS", "dimensionsFrom", "roundTripFrom", "bandwidthFrom", "host"]

    var json: String {
        func optional<T>(_ value: T?, _ render: (T) -> String) -> String { value.map(render) ?? "null" }
        let ks = { (value: Double) in FixedPoint.decimal(value, decimals: 4) }
        return #"{"requests": \#(requests), "apiCalls": \#(apiCalls), "imageDownloads": \#(imageDownloads), "#
            + #""apiFailures": \#(apiFailures), "apiRateLimited": \#(apiRateLimited), "itemsPerPage": \#(optional(itemsPerPage, String.init)), "#
            + #""apiLatencyKS": \#(optional(apiLatencyKS, ks)), "imageBytesKS": \#(optional(imageBytesKS, ks)), "#
            + #""dimensionsFrom": \#(ServeConditions.jsonString(dimensionsFrom)), "roundTripFrom": \#(ServeConditions.jsonString(roundTripFrom)), "#
            + #""bandwidthFrom": \#(ServeConditions.jsonString(bandwidthFrom)), "host": \#(ServeConditions.jsonString(host))}"#
    }

    init(_ object: [String: Any], reader: ServeConditions.Reader) throws {
        try reader.keys(of: object, allowed: Self.keys, at: "fit")
        func count(_ key: String) throws -> Int { try object[key].map { Int(try reader.integer($0, at: "fit.\(key)", in: 0...Int64(Int32.max))) } ?? 0 }
        func text(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value as? String else { throw InputError(source: reader.source, field: "fit.\(key)", "expected a string") }
            return text
        }
        func distance(_ key: String) throws -> Double? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            let number = try reader.number(value, at: "fit.\(key)")
            guard (0...1).contains(number) else { throw InputError(source: reader.source, field: "fit.\(key)", "expected a distance in 0…1, found \(number)") }
            return number
        }
        requests = try count("requests")
        apiCalls = try count("apiCalls")
        imageDownloads = try count("imageDownloads")
        apiFailures = try count("apiFailures")
        apiRateLimited = try count("apiRateLimited")
        if let items = object["itemsPerPage"], !(items is NSNull) { itemsPerPage = Int(try reader.integer(items, at: "fit.itemsPerPage", in: 0...1_000_000)) }
        apiLatencyKS = try distance("apiLatencyKS")
        imageBytesKS = try distance("imageBytesKS")
        dimensionsFrom = try text("dimensionsFrom") ?? "assumed"
        roundTripFrom = try text("roundTripFrom") ?? "assumed"
        bandwidthFrom = try text("bandwidthFrom") ?? "assumed"
        host = try text("host") ?? ""
    }
}
