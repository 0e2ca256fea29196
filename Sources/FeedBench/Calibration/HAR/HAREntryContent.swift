import Foundation

extension HAREntry {
    /// The response body the capture kept, as bytes: `content.text` base64-decoded when
    /// `content.encoding` is `base64` (how captures keep binary bodies such as images), or its
    /// UTF-8 bytes when there is no encoding. `nil` when the capture left the body out, the
    /// base64 is invalid, or the encoding is another. Decoded on each call. O(text).
    public var decodedContent: [UInt8]? {
        guard let contentText else { return nil }
        switch contentEncoding {
        case nil: return Array(contentText.utf8)
        case "base64": return Data(base64Encoded: contentText).map { Array($0) }
        default: return nil
        }
    }
}
