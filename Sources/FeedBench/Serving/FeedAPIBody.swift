/// The bodies of `bench serve`'s feed API — a page as `[{"id", "url", "width", "height"}]`, an
/// error as `{"error": "…"}` — shared with the simulated request log (`bench run --requests`),
/// whose byte counts are those of these bodies for a server at `defaultAuthority`.
public enum FeedAPIBody {
    /// The host and port the simulated log assumes the app asked (`bench serve`'s default).
    public static let defaultAuthority = "127.0.0.1:8080"

    /// A page: each image's id, its URL on the server at `authority`, its width and height.
    /// O(images).
    public static func page<Images: Collection>(_ images: Images, authority: String) -> String where Images.Element == ImageDescriptor {
        "[" + images.map { image in
            #"{"id": "\#(image.url)", "url": "http://\#(authority)/images/\#(image.url).jpg", "width": \#(image.pixelWidth), "height": \#(image.pixelHeight)}"#
        }.joined(separator: ", ") + "]"
    }

    /// `{"error": "…"}`, the message escaped.
    public static func error(_ message: String) -> String {
        #"{"error": \#(ServeConditions.jsonString(message))}"#
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
