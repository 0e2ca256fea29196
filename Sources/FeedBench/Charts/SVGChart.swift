/// Draws a `Chart` as one self-contained `<svg>` element, 600 px wide: title, grid, axes with
/// titles, stacked areas, reference lines, series (lines and markers, each point with its hover
/// text and, when it has a range, a capped whisker) and a legend under the plot. The markup is
/// regular so tests can read it back: `<svg class="chart" data-chart=KIND>`,
/// `<text class="axis-title">`, one `<g class="series" data-series=NAME>` per series holding one
/// `class="point"` (and one `class="whisker"` when it has a range) per point. The page may
/// scale it down to fit (its `viewBox` keeps the proportions).
public enum SVGChart {
    static let width = 600.0
    static let plotLeft = 76.0
    static let plotRight = width - 24
    static let plotHeight = 250.0
    /// Average advance of a 12 px sans-serif character, for laying out labels and the legend.
    static let characterWidth = 6.6
    /// The same for a chart's title (15 px, semibold, as the report's style sets it).
    static let titleCharacterWidth = 9.0
    static let markerRadius = 4.5
    /// Half the width of a whisker's caps.
    static let whiskerCap = 4.0

    /// The `<svg>` element, ending with a line end.
    public static func render(_ chart: Chart) -> String {
        var out = MarkupWriter()
        let subtitle = wrap(chart.subtitle)
        let plotTop = 44 + 16 * Double(subtitle.count)
        let plotBottom = plotTop + plotHeight

        // The x positions: numeric, or evenly spaced categories (rotated labels when crowded).
        let categories: [String]
        if case let .categorical(names) = chart.xAxis { categories = names } else { categories = [] }
        let slot = (plotRight - plotLeft) / Double(max(1, categories.count))
        let rotated = categories.contains { Double($0.count) * characterWidth > slot - 6 }
        let allX = chart.series.flatMap { $0.points.map(\.x) } + chart.areas.flatMap(\.xs)
        let xScale = AxisScale(covering: allX.min() ?? 0, allX.max() ?? 1, from: plotLeft, to: plotRight)
        func x(_ value: Double) -> Double {
            categories.isEmpty ? xScale.position(value) : plotLeft + (value + 0.5) * slot
        }
        let allY = chart.series.flatMap { $0.points.map { $0.range?.upperBound ?? $0.y } } + chart.areas.flatMap(\.upper)
        let yScale = chart.yRange.map { AxisScale(fixed: $0, from: plotBottom, to: plotTop) }
            ?? AxisScale(covering: allY.min() ?? 0, allY.max() ?? 1, from: plotBottom, to: plotTop)
        func y(_ value: Double) -> Double { yScale.position(value) }
        // The axes fit the data: a reference line beyond them is left out, and said so.
        let outside = chart.referenceLines.filter { rule in
            let scale = rule.orientation == .vertical ? xScale : yScale
            return !(scale.lower...scale.upper).contains(rule.value)
        }
        let notes = (chart.notes + outside.map { rule in
            let scale = rule.orientation == .vertical ? xScale : yScale
            return "\(rule.label): off the axis, every point is " + (rule.value > scale.upper ? "below it." : "above it.")
        }).map { wrap($0) }

        let xTitleY = plotBottom + (rotated ? 74 : 40)
        let legend = legendRows(chart)
        let legendTop = xTitleY + 14
        let notesTop = legendTop + Double(legend.count) * 20
        let height = (notesTop + Double(notes.joined().count) * 17 + 8).rounded(.up)

        out.line("<svg class=\"chart\" data-chart=\"\(SVGText.escape(chart.kind))\" xmlns=\"http://www.w3.org/2000/svg\" "
                 + "viewBox=\"0 0 \(SVGText.px(width)) \(SVGText.px(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                 + "role=\"img\" aria-label=\"\(SVGText.escape(chart.title))\">")
        out.line("<title>\(SVGText.escape(chart.title))</title>")
        out.label(chart.title, x: plotLeft, y: 22, attributes: "class=\"chart-title\"")
        if !subtitle.isEmpty { out.lines(subtitle, x: plotLeft, y: 40, spacing: 16, attributes: "class=\"chart-subtitle\"") }

        // Grid and axes.
        out.line("<g class=\"grid\">")
        for tick in yScale.ticks { out.segment(plotLeft, y(tick), plotRight, y(tick)) }
        if categories.isEmpty { for tick in xScale.ticks { out.segment(x(tick), plotTop, x(tick), plotBottom) } }
        out.line("</g>")
        out.line("<g class=\"axis y\">")
        out.segment(plotLeft, plotTop, plotLeft, plotBottom)
        for tick in yScale.ticks { out.label(yScale.label(tick), x: plotLeft - 6, y: y(tick) + 4, attributes: "class=\"tick\" text-anchor=\"end\"") }
        let middle = (plotTop + plotBottom) / 2
        out.label(chart.yTitle, x: 16, y: middle,
                 attributes: "class=\"axis-title\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(SVGText.px(middle)))\"")
        out.line("</g>")
        out.line("<g class=\"axis x\">")
        out.segment(plotLeft, plotBottom, plotRight, plotBottom)
        if categories.isEmpty {
            for tick in xScale.ticks { out.label(xScale.label(tick), x: x(tick), y: plotBottom + 17, attributes: "class=\"tick\" text-anchor=\"middle\"") }
        } else {
            for (index, name) in categories.enumerated() {
                let position = x(Double(index))
                out.segment(position, plotBottom, position, plotBottom + 4)
                out.categoryTick(name, x: position, plotBottom: plotBottom, rotated: rotated)
            }
        }
        out.label(chart.xTitle, x: (plotLeft + plotRight) / 2, y: xTitleY, attributes: "class=\"axis-title\" text-anchor=\"middle\"")
        out.line("</g>")

        // Stacked areas, then reference lines, then series on top.
        for area in chart.areas {
            let upper = zip(area.xs, area.upper).map { "\(SVGText.px(x($0))),\(SVGText.px(y($1)))" }
            let lower = zip(area.xs, area.lower).reversed().map { "\(SVGText.px(x($0))),\(SVGText.px(y($1)))" }
            out.line("<polygon class=\"area\" data-area=\"\(SVGText.escape(area.name))\" points=\"\((upper + lower).joined(separator: " "))\" "
                     + "fill=\"\(area.colour)\" fill-opacity=\"0.85\" stroke=\"#333\" stroke-width=\"0.6\"/>")
        }
        var labelYs: [Double] = []
        for rule in chart.referenceLines where !outside.contains(rule) {
            out.line("<g class=\"reference\" data-reference=\"\(SVGText.escape(rule.label))\">")
            let dash = rule.dash.isEmpty ? "" : " stroke-dasharray=\"\(rule.dash)\""
            switch rule.orientation {
            case .horizontal:
                let level = y(rule.value)
                out.segment(plotLeft, level, plotRight, level, attributes: "stroke=\"\(rule.colour)\" stroke-width=\"1.6\"\(dash)")
                // Above the line, or below it when another label is already there.
                var labelY = level - 5
                if labelYs.contains(where: { abs($0 - labelY) < 14 }) || labelY < plotTop + 10 { labelY = level + 14 }
                labelYs.append(labelY)
                out.label(rule.label, x: plotRight - 4, y: labelY, attributes: "class=\"reference-label\" text-anchor=\"end\" fill=\"\(rule.colour)\"")
            case .vertical:
                let position = x(rule.value)
                out.segment(position, plotTop, position, plotBottom, attributes: "stroke=\"\(rule.colour)\" stroke-width=\"1.6\"\(dash)")
                // At the foot of the line (clear of the horizontal lines' labels), on its left
                // when it would run past the plot's right edge.
                let fitsRight = position + 4 + Double(rule.label.count) * characterWidth <= plotRight
                out.label(rule.label, x: fitsRight ? position + 4 : position - 4, y: plotBottom - 6,
                          attributes: "class=\"reference-label\" text-anchor=\"\(fitsRight ? "start" : "end")\" fill=\"\(rule.colour)\"")
            }
            out.line("</g>")
        }
        for series in chart.series {
            out.line("<g class=\"series\" data-series=\"\(SVGText.escape(series.name))\">")
            let style = series.style
            if series.joined, series.points.count > 1 {
                let path = series.points.enumerated().map { index, point in
                    (index == 0 ? "M" : "L") + "\(SVGText.px(x(point.x))),\(SVGText.px(y(point.y)))"
                }.joined()
                let dash = style.dash.isEmpty ? "" : " stroke-dasharray=\"\(style.dash)\""
                out.line("<path class=\"line\" d=\"\(path)\" fill=\"none\" stroke=\"\(style.colour)\" stroke-width=\"2\"\(dash)/>")
            }
            for point in series.points {
                if let range = point.range {
                    let (middle, low, high) = (SVGText.px(x(point.x)), SVGText.px(y(range.lowerBound)), SVGText.px(y(range.upperBound)))
                    let (left, right) = (SVGText.px(x(point.x) - whiskerCap), SVGText.px(x(point.x) + whiskerCap))
                    out.line("<path class=\"whisker\" d=\"M\(middle),\(low)V\(high)M\(left),\(low)H\(right)M\(left),\(high)H\(right)\" "
                             + "fill=\"none\" stroke=\"\(style.colour)\" stroke-width=\"1.4\"/>")
                }
                out.line("<path class=\"point\" d=\"\(markerPath(style.marker, x(point.x), y(point.y), markerRadius))\" "
                         + markerPaint(style) + "><title>\(SVGText.escape(point.note))</title></path>")
            }
            out.line("</g>")
        }

        // Legend rows under the x title; then notes.
        out.line("<g class=\"legend\">")
        for (row, entries) in legend.enumerated() {
            var left = plotLeft
            let middle = legendTop + Double(row) * 20 + 6
            for entry in entries {
                switch entry {
                case let .series(series):
                    let dash = series.style.dash.isEmpty ? "" : " stroke-dasharray=\"\(series.style.dash)\""
                    if series.joined {
                        out.segment(left, middle, left + 28, middle, attributes: "stroke=\"\(series.style.colour)\" stroke-width=\"2\"\(dash)")
                    }
                    out.line("<path d=\"\(markerPath(series.style.marker, left + 14, middle, markerRadius))\" \(markerPaint(series.style))/>")
                    out.label(series.name, x: left + 34, y: middle + 4, attributes: "class=\"legend-label\"")
                case let .area(area):
                    out.line("<rect x=\"\(SVGText.px(left + 4))\" y=\"\(SVGText.px(middle - 6))\" width=\"20\" height=\"12\" fill=\"\(area.colour)\" stroke=\"#333\" stroke-width=\"0.6\"/>")
                    out.label(area.name, x: left + 34, y: middle + 4, attributes: "class=\"legend-label\"")
                }
                left += legendWidth(entry)
            }
        }
        out.line("</g>")
        var noteTop = notesTop + 12
        for note in notes {
            out.lines(note, x: plotLeft, y: noteTop, spacing: 17, attributes: "class=\"chart-note\"")
            noteTop += Double(note.count) * 17
        }
        out.line("</svg>")
        return out.text
    }

    /// `text` in lines that fit `width` (the plot's, by default) at `characterWidth` a character,
    /// broken after a space or another of `breaks`; a piece longer than a line is cut. Each line
    /// keeps the character it breaks after, so the lines joined are `text` again (but for a
    /// closing space). None for empty text. O(characters).
    static func wrap(_ text: String, width: Double = plotRight - plotLeft + 16, characterWidth: Double = characterWidth,
                     breakingAfter breaks: Set<Character> = [" "]) -> [String] {
        let fits = max(1, Int(width / characterWidth))
        var pieces: [String] = []
        var piece = ""
        for character in text {
            piece.append(character)
            if breaks.contains(character) || character == " " {
                pieces.append(piece)
                piece = ""
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        var lines: [String] = []
        var line = ""
        for var piece in pieces {
            if !line.isEmpty, line.count + piece.count - (piece.last == " " ? 1 : 0) > fits {
                lines.append(line)
                line = ""
            }
            while line.isEmpty && piece.count > fits {
                lines.append(String(piece.prefix(fits)))
                piece = String(piece.dropFirst(fits))
            }
            line += piece
        }
        if !line.isEmpty { lines.append(line.last == " " ? String(line.dropLast()) : line) }
        return lines
    }

    /// A legend entry: a series (line sample and marker) or an area (a swatch).
    enum LegendEntry {
        case series(Chart.Series)
        case area(Chart.Area)

        var name: String {
            switch self {
            case let .series(series): series.name
            case let .area(area): area.name
            }
        }
    }

    static func legendWidth(_ entry: LegendEntry) -> Double { 34 + Double(entry.name.count) * characterWidth + 18 }

    /// The legend's entries (areas first, bottom of the stack first), wrapped to the plot's width.
    static func legendRows(_ chart: Chart) -> [[LegendEntry]] {
        let entries = chart.areas.map(LegendEntry.area) + chart.series.map(LegendEntry.series)
        var rows: [[LegendEntry]] = []
        var row: [LegendEntry] = [], used = 0.0
        for entry in entries {
            let entryWidth = legendWidth(entry)
            if !row.isEmpty, used + entryWidth > legendSpan {
                rows.append(row)
                row = []
                used = 0
            }
            row.append(entry)
            used += entryWidth
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// How wide a legend row may be.
    static let legendSpan = plotRight - plotLeft + 16

    static func markerPaint(_ style: SeriesStyle) -> String {
        let fill = style.hollow || style.marker == .cross || style.marker == .plus ? "#fff" : style.colour
        return "fill=\"\(fill)\" stroke=\"\(style.colour)\" stroke-width=\"1.6\""
    }

    /// An SVG path of `marker` centred on (x, y), about `r` from the centre to its edge.
    static func markerPath(_ marker: SeriesStyle.Marker, _ x: Double, _ y: Double, _ r: Double) -> String {
        if marker == .circle {
            let (left, radius, across) = (SVGText.px(x - r), SVGText.px(r), SVGText.px(2 * r))
            return "M\(left),\(SVGText.px(y))a\(radius),\(radius) 0 1,0 \(across),0a\(radius),\(radius) 0 1,0 -\(across),0Z"
        }
        var path = ""
        for (index, corner) in (outlines[marker] ?? []).enumerated() {
            let px = SVGText.px(x + corner.0 * r), py = SVGText.px(y + corner.1 * r)
            path += (index == 0 ? "M" : "L") + px + "," + py
        }
        return path + "Z"
    }

    /// Each polygonal marker's corners for a radius of 1 (y down). The star's points alternate
    /// between radius 1.4 and 0.6, its sines and cosines written out so no trigonometry runs.
    static let outlines: [SeriesStyle.Marker: [(Double, Double)]] = [
        .square: [(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)],
        .triangle: [(0, -1.15), (1.05, 0.75), (-1.05, 0.75)],
        .invertedTriangle: [(0, 1.15), (1.05, -0.75), (-1.05, -0.75)],
        .diamond: [(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)],
        .cross: [(-0.9, -0.55), (-0.55, -0.9), (0, -0.35), (0.55, -0.9), (0.9, -0.55), (0.35, 0), (0.9, 0.55), (0.55, 0.9),
                 (0, 0.35), (-0.55, 0.9), (-0.9, 0.55), (-0.35, 0)],
        .plus: [(-0.35, -1.1), (0.35, -1.1), (0.35, -0.35), (1.1, -0.35), (1.1, 0.35), (0.35, 0.35), (0.35, 1.1), (-0.35, 1.1),
                (-0.35, 0.35), (-1.1, 0.35), (-1.1, -0.35), (-0.35, -0.35)],
        .star: [(0, -1.4), (0.353, -0.485), (1.331, -0.433), (0.571, 0.185), (0.823, 1.133), (0, 0.6), (-0.823, 1.133),
                (-0.571, 0.185), (-1.331, -0.433), (-0.353, -0.485)],
    ]
}

/// Accumulates SVG or HTML markup.
struct MarkupWriter {
    private(set) var text = ""

    mutating func line(_ markup: String) {
        text += markup
        text += "\n"
    }

    mutating func append(_ markup: String) { text += markup }

    mutating func segment(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, attributes: String = "") {
        line("<line x1=\"\(SVGText.px(x1))\" y1=\"\(SVGText.px(y1))\" x2=\"\(SVGText.px(x2))\" y2=\"\(SVGText.px(y2))\"\(attributes.isEmpty ? "" : " " + attributes)/>")
    }

    mutating func label(_ content: String, x: Double, y: Double, attributes: String) {
        line("<text x=\"\(SVGText.px(x))\" y=\"\(SVGText.px(y))\" \(attributes)>\(SVGText.escape(content))</text>")
    }

    /// A category's tick label under the plot's bottom edge at `x`: level, or turned 35° to end at
    /// its tick when the categories are too long to sit side by side.
    mutating func categoryTick(_ name: String, x: Double, plotBottom: Double, rotated: Bool) {
        if rotated {
            let top = plotBottom + 14
            label(name, x: x, y: top, attributes: "class=\"tick\" text-anchor=\"end\" transform=\"rotate(-35 \(SVGText.px(x)) \(SVGText.px(top)))\"")
        } else {
            label(name, x: x, y: plotBottom + 17, attributes: "class=\"tick\" text-anchor=\"middle\"")
        }
    }

    /// One `<text>` of `lines` (a wrapped text), the first at `y`, each next `spacing` lower.
    mutating func lines(_ lines: [String], x: Double, y: Double, spacing: Double, attributes: String) {
        let spans = lines.enumerated().map { index, content in
            "<tspan x=\"\(SVGText.px(x))\" y=\"\(SVGText.px(y + Double(index) * spacing))\">\(SVGText.escape(content))</tspan>"
        }
        line("<text \(attributes)>\(spans.joined())</text>")
    }
}
