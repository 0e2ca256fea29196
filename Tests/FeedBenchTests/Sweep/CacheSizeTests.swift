@testable import FeedBench
import Testing

/// The memory-limit axis: sizes, multiples of a setup's own limit, and the setup's own.
@Suite struct CacheSizeTests {
    @Test func multiplesScaleTheSetupsOwnLimitExactly() throws {
        #expect(try CacheSize.parse("0.03125x", source: "t") == .times(millionths: 31_250))
        #expect(try CacheSize.parse("0.03125x", source: "t").resolve(own: 471_859_200) == 14_745_600)
        #expect(try CacheSize.parse("1x", source: "t").resolve(own: 471_859_200) == 471_859_200)
        #expect(try CacheSize.parse("1.5x", source: "t").resolve(own: 1 << 40) == 3 << 39)
        #expect(CacheSize.times(millionths: 500_000).resolve(own: nil) == nil, "no cost limit stays none")
        #expect(CacheSize.setups.resolve(own: 7) == 7 && CacheSize.bytes(5).resolve(own: 7) == 5)
    }

    @Test func theDescriptionIsWhatParsesBack() throws {
        for text in ["0.03125x", "0.0625x", "0.5x", "1x", "2.25x"] {
            #expect(try CacheSize.parse(text, source: "t").description == text)
        }
        #expect(StandardMatrix.memoryLimits.map(\.description) == ["0.03125x", "0.0625x", "0.125x", "0.25x", "0.5x", "1x"])
    }

    @Test(arguments: ["0x", "-1x", "x", "1.0000001x", "1001x", "abcx"])
    func badMultiplesAreRefusedInOneLine(text: String) {
        #expect(throws: InputError.self) { try CacheSize.parse(text, source: "--memory-limit") }
    }
}
