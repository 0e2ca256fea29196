/// The key shared by a set of heatmaps: their colour classes as a bar with the breaks written
/// under it, then a sample of each mark the heatmaps use with what it means. `SVGHeatmap`
/// draws it.
public struct HeatmapKey: Sendable, Equatable {
    /// `data-chart`: what the key explains.
    public var kind: String
    /// What the colours measure.
    public var title: String
    public var scale: HeatScale
    /// What each mark means, in the order shown; only the marks in use.
    public var marks: [Mark]

    /// A mark and its meaning.
    public struct Mark: Sendable, Equatable {
        public var mark: Heatmap.Mark
        public var meaning: String
    }
}
