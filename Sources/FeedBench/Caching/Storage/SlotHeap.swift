/// A binary max-heap of slots keyed by `(rank, order)`, with each slot's position tracked so any
/// slot's key can change or the slot can leave in O(log n): the queue behind Belady and LFUDA.
///
/// swift-collections' `Heap` has no update or removal of an arbitrary element, which these
/// policies need on every hit; this keeps positions in a slot-indexed array instead.
public struct SlotHeap: Sendable {
    struct Node: Sendable {
        var slot: Int32
        var rank: Int64
        var order: Int64

        @inline(__always)
        func outranks(_ other: Node) -> Bool {
            rank != other.rank ? rank > other.rank : order > other.order
        }
    }

    var nodes: [Node] = []
    /// Heap position of each slot (`-1`: not in the heap).
    var positions: [Int32] = []

    public init() {}

    /// The number of slots in the heap.
    public var count: Int { nodes.count }

    /// The slot with the greatest `(rank, order)`. O(1).
    public var top: Int32? { nodes.first?.slot }

    /// Whether `slot` is in the heap. O(1).
    public func contains(_ slot: Int32) -> Bool {
        Int(slot) < positions.count && positions[Int(slot)] >= 0
    }

    /// The rank `slot` is stored with. O(1).
    public func rank(of slot: Int32) -> Int64 { nodes[Int(positions[Int(slot)])].rank }

    /// Adds `slot`, which must be absent. O(log n).
    public mutating func insert(_ slot: Int32, rank: Int64, order: Int64) {
        while positions.count <= Int(slot) { positions.append(-1) }
        precondition(positions[Int(slot)] < 0, "SlotHeap.insert: slot already present")
        nodes.append(Node(slot: slot, rank: rank, order: order))
        positions[Int(slot)] = Int32(nodes.count - 1)
        siftUp(nodes.count - 1)
    }

    /// Changes the key of `slot`, which must be present. O(log n).
    public mutating func update(_ slot: Int32, rank: Int64, order: Int64) {
        let i = Int(positions[Int(slot)])
        nodes[i].rank = rank
        nodes[i].order = order
        siftUp(i)
        siftDown(Int(positions[Int(slot)]))
    }

    /// Removes `slot`, which must be present. O(log n).
    public mutating func remove(_ slot: Int32) {
        let i = Int(positions[Int(slot)])
        let last = nodes.count - 1
        if i != last {
            move(nodes[last], to: i)
        }
        nodes.removeLast()
        positions[Int(slot)] = -1
        if i < nodes.count {
            siftUp(i)
            siftDown(Int(positions[Int(nodes[i].slot)]))
        }
    }

    /// Empties the heap, keeping its storage. O(slots).
    public mutating func removeAll() {
        nodes.removeAll(keepingCapacity: true)
        for i in positions.indices { positions[i] = -1 }
    }

    @inline(__always)
    mutating func move(_ node: Node, to i: Int) {
        nodes[i] = node
        positions[Int(node.slot)] = Int32(i)
    }

    mutating func siftUp(_ start: Int) {
        var i = start
        let node = nodes[i]
        while i > 0 {
            let parent = (i - 1) / 2
            guard node.outranks(nodes[parent]) else { break }
            move(nodes[parent], to: i)
            i = parent
        }
        move(node, to: i)
    }

    mutating func siftDown(_ start: Int) {
        var i = start
        let node = nodes[i]
        let n = nodes.count
        while true {
            var child = 2 * i + 1
            guard child < n else { break }
            if child + 1 < n, nodes[child + 1].outranks(nodes[child]) { child += 1 }
            guard nodes[child].outranks(node) else { break }
            move(nodes[child], to: i)
            i = child
        }
        move(node, to: i)
    }

    /// Checks the heap order and the position index (for tests). O(n).
    public func isValid() -> Bool {
        for (i, node) in nodes.enumerated() {
            if positions[Int(node.slot)] != Int32(i) { return false }
            if i > 0, node.outranks(nodes[(i - 1) / 2]) { return false }
        }
        return positions.filter { $0 >= 0 }.count == nodes.count
    }
}
