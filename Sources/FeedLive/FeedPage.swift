#if HTTP
import FeedBench
import Foundation

/// A page of the feed API as `bench serve` answers it (`FeedAPIBody.page`): exactly
/// `FeedAPIConfiguration.pageSize` objects `{"id", "url", "width", "height"}`, each id a catalogue
/// image whose URL is `/images/{id}.jpg` and whose dimensions are the catalogue's. The download
/// size is not on the page: it is the catalogue's (the server sends exactly the modelled bytes,
/// which `HTTPImageTransport` checks), so the app stores and caches what the simulation would.
enum FeedPage {
    struct Item: Decodable {
        var id: String
        var url: String
        var width: Int
        var height: Int
    }

    /// What a page must be, for refusals.
    static var expected: String {
        "expected a JSON page of \(FeedAPIConfiguration.pageSize) images [{\"id\", \"url\", \"width\", \"height\"}] from the image catalogue of bench serve"
    }

    /// The page's images, or why the body is not one.
    static func images(_ body: [UInt8], catalog: ImageCatalog) -> Result<[ImageDescriptor], Refusal> {
        guard let items = try? JSONDecoder().decode([Item].self, from: Data(body)) else {
            return .failure(Refusal("found \(InputError.quote(body))"))
        }
        guard items.count == FeedAPIConfiguration.pageSize else { return .failure(Refusal("found \(items.count) images")) }
        // The page gives each image as stored; the run asks for it at the catalogue's width.
        var stored = catalog
        stored.requestedWidth = nil
        var images: [ImageDescriptor] = []
        for item in items {
            guard let id = UInt64(item.id), id < UInt64(catalog.size), item.url.hasSuffix("/images/\(id).jpg") else {
                return .failure(Refusal("found image \(InputError.quote(item.id)) at \(InputError.quote(item.url))"))
            }
            let image = stored.descriptor(id)
            guard image.pixelWidth == item.width, image.pixelHeight == item.height else {
                return .failure(Refusal("found image \(id) at \(item.width)×\(item.height), the catalogue's is \(image.pixelWidth)×\(image.pixelHeight)"))
            }
            images.append(image.served(width: catalog.requestedWidth))
        }
        return .success(images)
    }

    /// Why a body is not a page.
    struct Refusal: Error {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }
}
#endif
