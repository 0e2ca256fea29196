/// The colour classes of a heatmap. The class breaks suit the values: when a 1–3–10 ladder
/// (1, 3, 10, 30, 100, …) puts two or more breaks among them, the ladder — so a handful and
/// hundreds both get their own shades — thinned to at most eight breaks; otherwise the nice
/// linear steps an axis over them would tick. The colours run light to dark (ColorBrewer's
/// YlOrRd), each class darker than the one before, so the order reads in greyscale too; a
/// cell's text is black on the light classes and white on the dark ones. Breaks are built by
/// multiplication only, so they are the same on every machine.
public struct HeatScale: Sendable, Equatable {
    /// Ascending; a value belongs to the class after every break at or below it.
    public let breaks: [Double]
    /// Each break as written under the key.
    public let labels: [String]
    /// One per class (`breaks.count + 1`), lightest first.
    public let colours: [String]

    /// Nine light-to-dark steps, lightness falling at each.
    static let palette = ["#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026"]

    /// A scale whose classes split `values` (see the type's description).
    public init(covering values: [Double]) {
        let low = values.min() ?? 0, high = values.max() ?? 0
        var ladder: [Double] = []
        var decade = 1.0
        while decade <= high {
            for step in [decade, 3 * decade] where step > low && step <= high { ladder.append(step) }
            decade *= 10
        }
        if ladder.count >= 2 {
            while ladder.count > Self.palette.count - 1 { ladder = ladder.enumerated().filter { $0.offset % 2 == 1 }.map(\.element) }
            breaks = ladder
            labels = ladder.map { SVGText.number($0, decimals: 0) }
        } else {
            let axis = AxisScale(covering: low, high, includingZero: false, from: 0, to: 1)
            breaks = axis.ticks.filter { $0 > low && $0 <= high }
            labels = breaks.map(axis.label)
        }
        let classes = breaks.count + 1
        colours = (0..<classes).map { index in
            Self.palette[classes == 1 ? 0 : (index * (Self.palette.count - 1) + (classes - 1) / 2) / (classes - 1)]
        }
    }

    /// The class `value` falls in.
    func classIndex(_ value: Double) -> Int { breaks.filter { $0 <= value }.count }

    /// The fill of a cell holding `value`.
    public func colour(_ value: Double) -> String { colours[classIndex(value)] }

    /// Black or white, whichever reads on `colour(value)`.
    func textColour(_ value: Double) -> String { Self.isDark(colour(value)) ? "#fff" : "#000" }

    /// Whether a `#rrggbb` colour is dark enough for white text (its luma below 150 of 255).
    static func isDark(_ colour: String) -> Bool {
        let digits = Array(colour.utf8.dropFirst()).map { Int(String(UnicodeScalar($0)), radix: 16)! }
        let (red, green, blue) = (digits[0] * 16 + digits[1], digits[2] * 16 + digits[3], digits[4] * 16 + digits[5])
        return 299 * red + 587 * green + 114 * blue < 150_000
    }
}
