/// A grid of cells coloured by value on a `HeatScale`: columns left to right, rows bottom to
/// top, each cell with its text, hover note and an optional mark. Several heatmaps can share
/// one scale and one `HeatmapKey` (small multiples). A plain value; `SVGHeatmap` draws it,
/// always to the same bytes.
public struct Heatmap: Sendable, Equatable {
    /// How a cell stands out from the rest; each look stays apart in greyscale.
    public enum Mark: String, Sendable, Equatable, CaseIterable {
        /// The one chosen: a thick solid outline and a star.
        case chosen
        /// As good as the chosen one: a dashed outline.
        case tied
        /// Ruled out: hatched grey instead of its colour.
        case excluded
    }

    /// One cell: its place, the value that colours it, its text and hover note.
    public struct Cell: Sendable, Equatable {
        public var column: Int
        public var row: Int
        public var value: Double
        public var text: String
        public var note: String
        public var mark: Mark?
    }

    /// `data-chart`: what the heatmap shows.
    public var kind: String
    public var title: String
    public var xTitle: String
    public var yTitle: String
    /// Column labels, left to right.
    public var columns: [String]
    /// Row labels, bottom to top.
    public var rows: [String]
    public var scale: HeatScale
    /// The cells; a place without one is left blank.
    public var cells: [Cell] = []
}
