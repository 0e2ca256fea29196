import Testing
@testable import FeedBench

/// The size of a page's body, counted without writing it, is the written body's size.
@Suite struct FeedAPIBodyTests {
    @Test func aPagesCountedBytesAreItsWrittenBytes() {
        var generator = SeededGenerator(seed: 7, stream: 1)
        for count in [0, 1, 2, 10, 37] {
            for _ in 0..<20 {
                let images = (0..<count).map { _ in
                    ImageDescriptor(url: generator.next() >> generator.next(below: 64), pixelWidth: Int(generator.next(below: 100_000)),
                                    pixelHeight: Int(generator.next(below: 10)), encodedBytes: 1)
                }
                let outcome = FeedAPIResponse.Outcome.page(images)
                #expect(FeedAPIBody.bytes(of: outcome) == FeedAPIBody.response(outcome).body.utf8.count)
            }
        }
        for value: UInt64 in [0, 9, 10, 99, 100, 999_999, 1_000_000, .max] {
            #expect(FeedAPIBody.digits(value) == String(value).count)
        }
        #expect(FeedAPIBody.bytes(of: .failure(.rateLimited)) == FeedAPIBody.error("rate limited").utf8.count)
    }
}
