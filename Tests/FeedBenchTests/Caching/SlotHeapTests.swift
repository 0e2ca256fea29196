import Testing
@testable import FeedBench

/// SlotHeap keeps the greatest (rank, order) on top through inserts, key changes and removals
/// of arbitrary slots.
@Suite struct SlotHeapTests {
    @Test(arguments: 0..<10)
    func topIsAlwaysTheGreatestKey(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var heap = SlotHeap()
        var model: [Int32: (Int64, Int64)] = [:]
        for step in 0..<3000 {
            let slot = Int32(generator.next(below: 200))
            let rank = Int64(generator.next(below: 50))
            let key = (rank, Int64(step))
            if model[slot] == nil {
                heap.insert(slot, rank: key.0, order: key.1)
                model[slot] = key
            } else if generator.chance(0.5) {
                heap.update(slot, rank: key.0, order: key.1)
                model[slot] = key
            } else {
                heap.remove(slot)
                model[slot] = nil
            }
            #expect(heap.isValid())
            #expect(heap.count == model.count)
            let best = model.max { $0.value.0 != $1.value.0 ? $0.value.0 < $1.value.0 : $0.value.1 < $1.value.1 }
            #expect(heap.top == best?.key)
        }
    }
}
