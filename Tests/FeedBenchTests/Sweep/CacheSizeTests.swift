@testable import FeedBench
import Testing

/// The memory-limit axis: sizes, multiples of a setup's own limit, shares of the device's RAM,
/// and the setup's own.
@Suite struct CacheSizeTests {
    @Test func multiplesScaleTheSetupsOwnLimitExactly() throws {
        #expect(try CacheSize.parse("0.03125x", source: "t") == .times(millionths: 31_250))
        #expect(try CacheSize.parse("0.03125x", source: "t").resolve(own: 471_859_200, ram: 1) == 14_745_600)
        #expect(try CacheSize.parse("1x", source: "t").resolve(own: 471_859_200, ram: 1) == 471_859_200)
        #expect(try CacheSize.parse("1.5x", source: "t").resolve(own: 1 << 40, ram: 1) == 3 << 39)
        #expect(CacheSize.times(millionths: 500_000).resolve(own: nil, ram: 1) == nil, "no cost limit stays none")
        #expect(CacheSize.setups.resolve(own: 7, ram: 1) == 7 && CacheSize.bytes(5).resolve(own: 7, ram: 1) == 5)
    }

    @Test func ramSharesScaleTheDevicesRAMExactlyWhateverTheSetupsOwn() throws {
        let ram: Int64 = 3 << 30
        #expect(try CacheSize.parse("2%ram", source: "t") == .ramShare(millionths: 20_000))
        #expect(try CacheSize.parse("2%ram", source: "t").resolve(own: nil, ram: ram) == 64_424_509)
        #expect(try CacheSize.parse("100%ram", source: "t").resolve(own: 7, ram: ram) == ram)
        #expect(try CacheSize.parse("0.0001%ram", source: "t").resolve(own: 7, ram: 1) == 1, "at least a byte")
    }

    @Test func theDescriptionIsWhatParsesBack() throws {
        for text in ["0.03125x", "0.0625x", "0.5x", "1x", "2.25x", "0.5%ram", "15%ram", "0.0625%ram"] {
            #expect(try CacheSize.parse(text, source: "t").description == text)
        }
        #expect(StandardMatrix.memoryLimits.map(\.description) == ["0.03125x", "0.0625x", "0.125x", "0.25x", "0.5x", "1x"])
    }

    @Test(arguments: ["0x", "-1x", "x", "1.0000001x", "1001x", "abcx", "0%ram", "101%ram", "%ram", "1.00001%ram", "2%RAM"])
    func badMultiplesAreRefusedInOneLine(text: String) {
        #expect(throws: InputError.self) { try CacheSize.parse(text, source: "--memory-limit") }
    }
}
