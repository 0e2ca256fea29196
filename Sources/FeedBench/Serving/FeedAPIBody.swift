/// The bodies of `bench serve`'s feed API — a page as `[{"id", "url", "width", "height"}]`, an
/// error as `{"error": "…"}` — shared with the simulated request log (`bench run --requests`),
/// whose byte counts are those of these bodies for a server at `defaultOrigin`.
public enum FeedAPIBody {
    /// The host and port the simulated log assumes the app asked (`bench serve`'s default).
    public static let defaultAuthority = "127.0.0.1:8080"
    /// The scheme, host and port the simulated log assumes (plain `bench serve`'s default; over
    /// `--tls` each image's URL says `https`, one byte more).
    public static let defaultOrigin = "http://" + defaultAuthority

    /// A page: each image's id, its URL on the server at `origin` (`scheme://host:port`), its
    /// width and height. O(images).
    public static func page<Images: Collection>(_ images: Images, origin: String) -> String where Images.Element == ImageDescriptor {
        "[" + images.map { image in
            #"{"id": "\#(image.url)", "url": "\#(origin)/images/\#(image.url).jpg", "width": \#(image.pixelWidth), "height": \#(image.pixelHeight)}"#
        }.joined(separator: ", ") + "]"
    }

    /// `{"error": "…"}`, the message escaped.
    public static func error(_ message: String) -> String {
        #"{"error": \#(ServeConditions.jsonString(message))}"#
    }

    /// The status and body of the API's answer `outcome` from a server at `defaultOrigin`
    /// (what the simulated request log and network count). O(images).
    public static func response(_ outcome: FeedAPIResponse.Outcome) -> (status: Int, body: String) {
        switch outcome {
        case let .page(images):
            return (200, page(images, origin: defaultOrigin))
        case let .failure(failure):
            let (code, message) = Self.failure(failure)
            return (code, error(message))
        }
    }

    /// The body bytes of `response(outcome)`, counted without writing the body (a page's is
    /// built from its images' digits: the simulated network needs only its size). O(images).
    static func bytes(of outcome: FeedAPIResponse.Outcome) -> Int {
        guard case let .page(images) = outcome else { return response(outcome).body.utf8.count }
        return images.isEmpty ? 2 : images.reduce(2 + 2 * (images.count - 1)) { total, image in
            total + itemWithoutDigits + 2 * digits(image.url) + digits(UInt64(image.pixelWidth)) + digits(UInt64(image.pixelHeight))
        }
    }

    /// The bytes of a page's item but for the digits of its id (twice), width and height.
    static let itemWithoutDigits = page([ImageDescriptor(url: 0, pixelWidth: 0, pixelHeight: 0, encodedBytes: 0)],
                                        origin: defaultOrigin).utf8.count - 2 - 4

    /// The decimal digits of `value`. O(digits).
    static func digits(_ value: UInt64) -> Int {
        var count = 1, rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// The status and message of an injected failure: 500, 504 at the timeout, 429.
    public static func failure(_ failure: FeedAPIFailure) -> (status: Int, message: String) {
        switch failure {
        case .serverError: return (500, "injected server error")
        case .timeout: return (504, "injected timeout")
        case .rateLimited: return (429, "rate limited")
        }
    }
}
