import Testing
@testable import FeedBench

/// The response bodies a capture keeps, as bytes: base64 decoded, plain text as UTF-8.
@Suite struct HAREntryContentTests {
    static func entry(text: String?, encoding: String?) -> HAREntry {
        HAREntry(index: 0, line: 1, startedDateTime: "2026-11-23T10:49:09.123Z", time: 1, method: "GET",
                 url: "https://img.example/1.png", status: 200, mimeType: "image/png", contentEncoding: encoding,
                 contentText: text, timings: HARTimings(send: 0, wait: 1, receive: 0))
    }

    @Test func base64TextIsDecodedAndPlainTextIsItsUTF8Bytes() {
        #expect(Self.entry(text: "iVBORw0KGgo=", encoding: "base64").decodedContent == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Self.entry(text: "", encoding: "base64").decodedContent == [])
        #expect(Self.entry(text: "{\"é\":1}", encoding: nil).decodedContent == [0x7B, 0x22, 0xC3, 0xA9, 0x22, 0x3A, 0x31, 0x7D])
    }

    @Test func noBodyInvalidBase64OrAnotherEncodingIsNil() {
        #expect(Self.entry(text: nil, encoding: nil).decodedContent == nil)
        #expect(Self.entry(text: nil, encoding: "base64").decodedContent == nil)
        #expect(Self.entry(text: "not base64!", encoding: "base64").decodedContent == nil)
        #expect(Self.entry(text: "H4sI", encoding: "gzip").decodedContent == nil)
    }

    @Test func everyBase64BodyInTheFixturesDecodesToItsContentSize() throws {
        var bodies = 0
        for capture in HARFixturesTests.captures {
            _ = try HARReader(path: HARFixturesTests.path(capture.file)).forEachEntry { entry in
                guard entry.contentEncoding == "base64" else { return }
                bodies += 1
                let body = entry.decodedContent
                #expect(body != nil, "\(capture.file) entry \(entry.index)")
                // Safari writes a size of 0 for bodies it kept.
                if let size = entry.contentSize, size > 0 { #expect(body?.count == size, "\(capture.file) entry \(entry.index)") }
            }
        }
        #expect(bodies == 82)
    }
}
