import Testing
@testable import FeedBench

/// KeyIndex behaves exactly like a `Dictionary` under random churn, including the backward-shift
/// deletions that keep probe runs intact.
@Suite struct KeyIndexTests {
    @Test(arguments: 0..<20)
    func matchesADictionaryUnderRandomChurn(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var index = KeyIndex(expectedCount: 4)
        var model: [UInt64: Int32] = [:]
        // A small key space with clustered keys forces long probe runs and wrap-around.
        let keySpace: UInt64 = seed % 2 == 0 ? 64 : 5000
        for step in 0..<4000 {
            let key = generator.next(below: keySpace) &* (seed % 3 == 0 ? 1 << 32 : 1)
            switch generator.next(below: 3) {
            case 0:
                if model[key] == nil {
                    index.insert(key, slot: Int32(step))
                    model[key] = Int32(step)
                }
            case 1:
                #expect(index.remove(key) == model.removeValue(forKey: key))
            default:
                if model[key] != nil {
                    index.update(key, slot: Int32(step))
                    model[key] = Int32(step)
                }
            }
            #expect(index.count == model.count)
        }
        for key in 0..<keySpace {
            let k = key &* (seed % 3 == 0 ? 1 << 32 : 1)
            #expect(index.slot(for: k) == model[k])
        }
    }

    @Test func removeAllForgetsEveryKeyAndKeepsWorking() {
        var index = KeyIndex()
        for k in 0..<100 { index.insert(UInt64(k), slot: Int32(k)) }
        index.removeAll()
        #expect(index.count == 0)
        #expect(index.slot(for: 5) == nil)
        index.insert(5, slot: 1)
        #expect(index.slot(for: 5) == 1)
    }

    @Test func extremeKeysAreOrdinaryKeys() {
        var index = KeyIndex()
        index.insert(0, slot: 1)
        index.insert(.max, slot: 2)
        #expect(index.slot(for: 0) == 1)
        #expect(index.slot(for: .max) == 2)
        #expect(index.remove(.max) == 2)
        #expect(index.slot(for: .max) == nil)
    }
}
