/// Draws a `Heatmap` (and a `HeatmapKey`) as one self-contained `<svg>` element, 440 px wide
/// so small multiples sit two abreast on a desktop page and one fills a phone's width. The
/// markup is regular so tests can read it back: `<svg class="chart heatmap" data-chart=KIND>`,
/// one `<g class="cell" data-x=COLUMN data-y=ROW>` per cell (with `data-mark` when marked)
/// holding its `<rect>`, `<text class="cell-value">` and hover `<title>`; the key is
/// `<svg class="chart heatmap-key">` with one `<g class="key-mark" data-mark=MARK>` per mark.
public enum SVGHeatmap {
    static let width = 440.0
    static let plotLeft = 84.0
    static let plotRight = width - 14
    static let plotTop = 34.0
    static let titleSpacing = 16.0
    static let minimumCellHeight = 34.0

    /// The heatmap's `<svg>` element, ending with a line end.
    public static func render(_ heatmap: Heatmap) -> String {
        var out = MarkupWriter()
        // A title longer than the panel (a long policy name) wraps after `:`, `(` or `,`.
        let title = SVGChart.wrap(heatmap.title, width: width - plotLeft - 8, characterWidth: SVGChart.titleCharacterWidth,
                                  breakingAfter: [":", "(", ","])
        let plotTop = Self.plotTop + Double(max(0, title.count - 1)) * titleSpacing
        let cellWidth = (plotRight - plotLeft) / Double(max(1, heatmap.columns.count))
        // Tall enough for the rotated y title, however few the rows.
        let rows = Double(max(1, heatmap.rows.count))
        let cellHeight = max(minimumCellHeight, ((Double(heatmap.yTitle.count) * SVGChart.characterWidth + 8) / rows).rounded(.up))
        let plotBottom = plotTop + Double(heatmap.rows.count) * cellHeight
        let rotated = heatmap.columns.contains { Double($0.count) * SVGChart.characterWidth > cellWidth - 6 }
        let xTitleY = plotBottom + (rotated ? 70 : 36)
        let height = (xTitleY + 10).rounded(.up)
        out.line("<svg class=\"chart heatmap\" data-chart=\"\(SVGText.escape(heatmap.kind))\" xmlns=\"http://www.w3.org/2000/svg\" "
                 + "viewBox=\"0 0 \(SVGText.px(width)) \(SVGText.px(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                 + "role=\"img\" aria-label=\"\(SVGText.escape(heatmap.title))\">")
        out.line("<title>\(SVGText.escape(heatmap.title))</title>")
        out.lines(title, x: plotLeft, y: 22, spacing: titleSpacing, attributes: "class=\"chart-title\"")

        for cell in heatmap.cells {
            let left = plotLeft + Double(cell.column) * cellWidth
            let top = plotBottom - Double(cell.row + 1) * cellHeight
            let mark = cell.mark.map { " data-mark=\"\($0.rawValue)\"" } ?? ""
            out.line("<g class=\"cell\" data-x=\"\(SVGText.escape(heatmap.columns[cell.column]))\" "
                     + "data-y=\"\(SVGText.escape(heatmap.rows[cell.row]))\"\(mark)>")
            out.line("<title>\(SVGText.escape(cell.note))</title>")
            let excluded = cell.mark == .excluded
            box(&out, left: left, top: top, width: cellWidth, height: cellHeight,
                fill: excluded ? excludedFill : heatmap.scale.colour(cell.value), mark: cell.mark)
            let weight = cell.mark == .chosen ? " font-weight=\"700\"" : ""
            out.label(cell.text, x: left + cellWidth / 2, y: top + cellHeight / 2 + 4,
                      attributes: "class=\"cell-value\" text-anchor=\"middle\" fill=\"\(excluded ? "#333" : heatmap.scale.textColour(cell.value))\"\(weight)")
            out.line("</g>")
        }

        out.line("<g class=\"axis y\">")
        for (index, row) in heatmap.rows.enumerated() {
            out.label(row, x: plotLeft - 6, y: plotBottom - (Double(index) + 0.5) * cellHeight + 4, attributes: "class=\"tick\" text-anchor=\"end\"")
        }
        let middle = (plotTop + plotBottom) / 2
        out.label(heatmap.yTitle, x: 14, y: middle,
                  attributes: "class=\"axis-title\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(SVGText.px(middle)))\"")
        out.line("</g>")
        out.line("<g class=\"axis x\">")
        for (index, column) in heatmap.columns.enumerated() {
            out.categoryTick(column, x: plotLeft + (Double(index) + 0.5) * cellWidth, plotBottom: plotBottom, rotated: rotated)
        }
        out.label(heatmap.xTitle, x: (plotLeft + plotRight) / 2, y: xTitleY, attributes: "class=\"axis-title\" text-anchor=\"middle\"")
        out.line("</g>")
        out.line("</svg>")
        return out.text
    }

    /// The key's `<svg>` element, ending with a line end: the colour bar with its breaks, then
    /// one row per mark.
    public static func render(_ key: HeatmapKey) -> String {
        var out = MarkupWriter()
        let (left, right, barTop, barHeight) = (20.0, width - 20, 32.0, 16.0)
        let marksTop = barTop + barHeight + 32
        let height = (marksTop + Double(key.marks.count) * 24 + 4).rounded(.up)
        out.line("<svg class=\"chart heatmap-key\" data-chart=\"\(SVGText.escape(key.kind))\" xmlns=\"http://www.w3.org/2000/svg\" "
                 + "viewBox=\"0 0 \(SVGText.px(width)) \(SVGText.px(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                 + "role=\"img\" aria-label=\"\(SVGText.escape(key.title))\">")
        out.label(key.title, x: left, y: 20, attributes: "class=\"chart-title\"")
        let segment = (right - left) / Double(key.scale.colours.count)
        for (index, colour) in key.scale.colours.enumerated() {
            out.line("<rect class=\"key-class\" x=\"\(SVGText.px(left + Double(index) * segment))\" y=\"\(SVGText.px(barTop))\" "
                     + "width=\"\(SVGText.px(segment))\" height=\"\(SVGText.px(barHeight))\" fill=\"\(colour)\" stroke=\"#333\" stroke-width=\"0.6\"/>")
        }
        for (index, label) in key.scale.labels.enumerated() {
            let position = left + Double(index + 1) * segment
            out.segment(position, barTop + barHeight, position, barTop + barHeight + 4, attributes: "stroke=\"#333\"")
            out.label(label, x: position, y: barTop + barHeight + 17, attributes: "class=\"tick\" text-anchor=\"middle\"")
        }
        for (index, entry) in key.marks.enumerated() {
            let top = marksTop + Double(index) * 24
            out.line("<g class=\"key-mark\" data-mark=\"\(entry.mark.rawValue)\">")
            box(&out, left: left, top: top, width: 34, height: 20,
                fill: entry.mark == .excluded ? excludedFill : key.scale.colours[0], mark: entry.mark)
            out.label(entry.meaning, x: left + 44, y: top + 14, attributes: "class=\"legend-label\"")
            out.line("</g>")
        }
        out.line("</svg>")
        return out.text
    }

    static let excludedFill = "#ececec"

    /// A cell's rectangle in `fill` (white gaps between cells) and its mark: hatching for
    /// `excluded`, a dashed outline for `tied`, a thick outline and a star for `chosen`.
    static func box(_ out: inout MarkupWriter, left: Double, top: Double, width: Double, height: Double, fill: String, mark: Heatmap.Mark?) {
        out.line("<rect x=\"\(SVGText.px(left))\" y=\"\(SVGText.px(top))\" width=\"\(SVGText.px(width))\" height=\"\(SVGText.px(height))\" "
                 + "fill=\"\(fill)\" stroke=\"#fff\" stroke-width=\"1\"/>")
        let (inLeft, inTop, inWidth, inHeight) = (SVGText.px(left + 2.5), SVGText.px(top + 2.5), SVGText.px(width - 5), SVGText.px(height - 5))
        switch mark {
        case .excluded:
            // Lines rising to the right every 7 px, each clipped to the rectangle.
            var offset = 7 - height
            while offset < width {
                let start = offset >= 0 ? (left + offset, top + height) : (left, top + height + offset)
                let end = offset + height <= width ? (left + offset + height, top) : (left + width, top + height - width + offset)
                out.segment(start.0, start.1, end.0, end.1, attributes: "class=\"hatch\" stroke=\"#8c8c8c\" stroke-width=\"1\"")
                offset += 7
            }
        case .tied:
            out.line("<rect class=\"outline\" x=\"\(inLeft)\" y=\"\(inTop)\" width=\"\(inWidth)\" height=\"\(inHeight)\" "
                     + "fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"4 2.5\"/>")
        case .chosen:
            out.line("<rect class=\"outline\" x=\"\(inLeft)\" y=\"\(inTop)\" width=\"\(inWidth)\" height=\"\(inHeight)\" "
                     + "fill=\"none\" stroke=\"#000\" stroke-width=\"3\"/>")
            out.line("<path class=\"star\" d=\"\(SVGChart.markerPath(.star, left + 8, top + 7.5, 3.5))\" fill=\"#000\" stroke=\"#fff\" stroke-width=\"0.8\"/>")
        case nil:
            break
        }
    }
}
