/// A chart to draw as inline SVG: an x axis (numeric or categorical), a numeric y axis, lines
/// and point series (each point with an optional whisker for its spread), stacked areas and
/// labelled reference lines. A plain value; `SVGChart` draws it, always to the same bytes.
public struct Chart: Sendable, Equatable {
    /// How x values are placed.
    public enum XAxis: Sendable, Equatable {
        /// A linear axis; points carry their value.
        case numeric
        /// Evenly spaced categories, in this order; points carry their category's index.
        case categorical([String])
    }

    /// A named set of points drawn with one style: joined by a line, or as markers only.
    public struct Series: Sendable, Equatable {
        public var name: String
        public var style: SeriesStyle
        public var points: [Point]
        /// Whether a line joins the points (in their order).
        public var joined = true
    }

    /// One point; `note` is its hover text; `range`, when given, is drawn as a whisker
    /// through it (e.g. the minimum and maximum over seeds of a mean).
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var note: String
        public var range: ClosedRange<Double>?

        public init(x: Double, y: Double, note: String, range: ClosedRange<Double>? = nil) {
            self.x = x
            self.y = y
            self.note = note
            self.range = range
        }
    }

    /// A band between `lower` and `upper` (both sampled at `xs`): one layer of a stack.
    public struct Area: Sendable, Equatable {
        public var name: String
        public var colour: String
        public var xs: [Double]
        public var lower: [Double]
        public var upper: [Double]
    }

    /// A labelled line across the plot at a fixed value.
    public struct ReferenceLine: Sendable, Equatable {
        public enum Orientation: Sendable, Equatable { case horizontal, vertical }
        public var orientation: Orientation
        public var value: Double
        public var label: String
        public var colour: String
        public var dash: String
    }

    /// `data-chart`: what the chart shows (`hit-rate`, `display-p95`, `peak-memory`, `stalls-by-cache`, …).
    public var kind: String
    public var title: String
    /// Text under the title (what else the rows share), wrapped to the chart's width; empty
    /// for none.
    public var subtitle = ""
    public var xTitle: String
    public var yTitle: String
    public var xAxis: XAxis
    /// A fixed y range; otherwise from 0 to the largest value drawn (whisker tops included).
    /// A numeric x axis runs from 0 to the largest x. Reference lines do not stretch the axes:
    /// one beyond them is left out and named in a note, so data far below a limit still fills
    /// the plot.
    public var yRange: ClosedRange<Double>?
    public var series: [Series] = []
    public var areas: [Area] = []
    public var referenceLines: [ReferenceLine] = []
    /// Remarks printed under the plot (e.g. why limits are missing).
    public var notes: [String] = []

    /// Adds a note for each set of series whose points are all equal (same x and y, in order),
    /// naming them, since their lines and markers coincide and only the last drawn shows — e.g.
    /// policies that never evict at a large cache. O(series² × points).
    public mutating func noteCoincidentSeries() {
        var grouped: [[String]] = []
        var representatives: [[Point]] = []
        for line in series {
            let shape = line.points.map { Point(x: $0.x, y: $0.y, note: "") }
            if let index = representatives.firstIndex(of: shape) {
                grouped[index].append(line.name)
            } else {
                representatives.append(shape)
                grouped.append([line.name])
            }
        }
        for names in grouped where names.count > 1 {
            notes.append("Same values at every point, so their lines coincide: \(names.joined(separator: ", ")).")
        }
    }
}

/// How a series looks: colour, dash pattern and marker shape, so that series stay apart in
/// greyscale and for colour-blind readers (Okabe–Ito colours).
public struct SeriesStyle: Sendable, Equatable {
    /// Marker shapes, drawn as paths around the point.
    public enum Marker: Sendable, CaseIterable, Equatable {
        case circle, square, triangle, diamond, invertedTriangle, cross, plus, star
    }

    public var colour: String
    /// An SVG `stroke-dasharray`, empty for a solid line.
    public var dash: String
    public var marker: Marker
    /// Hollow markers (white inside).
    public var hollow = false

    static let colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D00"]
    static let dashes = ["", "8 4", "2 3", "10 3 2 3", "4 4", "14 4 3 4 3 4"]

    /// The `index`th style of the palette: colour, dash and marker each cycle on their own, so
    /// consecutive styles differ in all three; the marker moves one further on each round of
    /// the colours, so a colour never comes back with the same marker.
    public static func palette(_ index: Int) -> SeriesStyle {
        let markers = Marker.allCases
        return SeriesStyle(colour: colours[index % colours.count], dash: dashes[index % dashes.count],
                           marker: markers[(index + index / colours.count) % markers.count])
    }
}
