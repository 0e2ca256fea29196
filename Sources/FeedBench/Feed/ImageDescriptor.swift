/// One image as the feed API describes it: what the client stores in its feed database and what
/// the image pipeline downloads, decodes and caches.
public struct ImageDescriptor: Sendable, Hashable {
    /// The URL's identity: the image's id in its `ImageCatalog`. Two descriptors with the same
    /// `url` are the same image.
    public var url: UInt64
    /// The full-size image's width in pixels.
    public var pixelWidth: Int
    /// The full-size image's height in pixels.
    public var pixelHeight: Int
    /// The download's size: the encoded (JPEG) bytes.
    public var encodedBytes: Int64

    public init(url: UInt64, pixelWidth: Int, pixelHeight: Int, encodedBytes: Int64) {
        self.url = url
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.encodedBytes = encodedBytes
    }
}
