@testable import FeedBench
import Testing

/// The chart primitives: nice axis ticks, the window axis rule, the SVG a chart becomes —
/// whiskers, axes from 0 that fit the data, wrapped subtitles and notes — and heatmaps: colour
/// classes that suit the values and read in greyscale, cells with their marks.
@Suite struct ChartTests {
    @Test(arguments: [
        (0.0, 50.0, [0.0, 10, 20, 30, 40, 50]),
        (0.0, 449.0, [0.0, 100, 200, 300, 400, 500]),
        (0.0, 7.0, [0.0, 2, 4, 6, 8]),
        (0.0, 1.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
        (0.0, 0.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
        (0.0, 1400.0, [0.0, 500, 1000, 1500]),
        (0.0, 12.0, [0.0, 2.5, 5, 7.5, 10, 12.5]),
    ])
    func ticksAreNiceAndCoverTheValues(low: Double, high: Double, ticks: [Double]) {
        let scale = AxisScale(covering: low, high, from: 0, to: 100)
        #expect(scale.ticks.count == ticks.count)
        #expect(zip(scale.ticks, ticks).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(scale.position(scale.lower) == 0 && scale.position(scale.upper) == 100)
    }

    @Test func tickLabelsHaveTheDecimalsTheStepNeeds() {
        #expect(AxisScale(covering: 0, 1400, from: 0, to: 1).label(1000) == "1000")
        #expect(AxisScale(covering: 0, 1, from: 0, to: 1).label(0.4) == "0.4")
        #expect(AxisScale(covering: 0, 12, from: 0, to: 1).label(2.5) == "2.5")
    }

    @Test func itemCountWindowsAreNumericOtherFormsAreOrderedCategories() {
        let numeric = ReportCharts.windowAxis(["20", "0", "5"])
        #expect(numeric.axis == .numeric)
        #expect(numeric.x == ["0": 0, "5": 5, "20": 20])
        let mixed = ReportCharts.windowAxis(["adaptive:20", "velocity", "20+5", "device", "1.5screens", "10", "adaptive:8", "20"])
        #expect(mixed.axis == .categorical(["10", "20", "20+5", "1.5screens", "device", "velocity", "adaptive:8", "adaptive:20"]))
        #expect(mixed.x["20+5"] == 2 && mixed.x["adaptive:20"] == 7)
    }

    @Test func svgHasOneMarkerPerPointAndEscapesText() throws {
        var chart = Chart(kind: "test", title: "A <b> & \"c\"", xTitle: "x (s)", yTitle: "y (MiB)", xAxis: .numeric)
        chart.series = (0..<9).map { index in
            Chart.Series(name: "s\(index)", style: .palette(index),
                         points: (0...index).map { Chart.Point(x: Double($0), y: Double($0 * index), note: "p\($0)") })
        }
        let svg = try MarkupElement.parse(SVGChart.render(chart))
        let root = try #require(svg.all("svg", class: "chart").first)
        #expect(root.attributes["data-chart"] == "test")
        #expect(root.all("text", class: "chart-title").first?.allText == "A <b> & \"c\"")
        let series = root.all("g", class: "series")
        #expect(series.map { $0.all("path", class: "point").count } == Array(1...9))
        #expect(root.all("text", class: "axis-title").map(\.allText) == ["y (MiB)", "x (s)"])
        // Each style differs from the next in colour, dash and marker, and no two of the first
        // sixteen share both colour and marker.
        for index in 0..<16 {
            let (a, b) = (SeriesStyle.palette(index), SeriesStyle.palette(index + 1))
            #expect(a.colour != b.colour && a.dash != b.dash && a.marker != b.marker)
        }
        let pairs = (0..<16).map { "\(SeriesStyle.palette($0).colour) \(SeriesStyle.palette($0).marker)" }
        #expect(Set(pairs).count == 16)
        // Every legend entry sits inside the chart's width.
        #expect(SVGChart.legendRows(chart).allSatisfy { row in row.reduce(0) { $0 + SVGChart.legendWidth($1) } <= SVGChart.legendSpan || row.count == 1 })
    }

    @Test func seriesWithTheSameValuesEverywhereAreNamedInANote() throws {
        func series(_ name: String, _ ys: [Double]) -> Chart.Series {
            Chart.Series(name: name, style: .palette(0), points: ys.enumerated().map { Chart.Point(x: Double($0.offset), y: $0.element, note: name) })
        }
        var chart = Chart(kind: "test", title: "t", xTitle: "x", yTitle: "y", xAxis: .numeric)
        chart.series = [series("lru", [1, 2, 3]), series("lfu", [1, 2, 4]), series("fifo", [1, 2, 3]),
                        series("arc", [1, 2]), series("s3fifo", [1, 2, 3]), series("sieve", [1, 2, 4])]
        chart.noteCoincidentSeries()
        #expect(chart.notes == ["Same values at every point, so their lines coincide: lru, fifo, s3fifo.",
                                "Same values at every point, so their lines coincide: lfu, sieve."])
        let svg = try MarkupElement.parse(SVGChart.render(chart))
        #expect(svg.allText.contains("their lines coincide: lru, fifo, s3fifo."))
        var distinct = Chart(kind: "test", title: "t", xTitle: "x", yTitle: "y", xAxis: .numeric)
        distinct.series = [series("lru", [1, 2, 3]), series("lfu", [1, 2, 4])]
        distinct.noteCoincidentSeries()
        #expect(distinct.notes.isEmpty)
    }

    /// The `<text class="tick">` labels of a chart's `axis` (`x` or `y`), lowest value first.
    static func ticks(_ chart: MarkupElement, _ axis: String) -> [String] {
        chart.all("g", class: "axis").filter { $0.attributes["class"] == "axis \(axis)" }.flatMap { $0.all("text", class: "tick") }.map(\.allText)
    }

    @Test func whiskersSpanTheRangeAndTheAxisCoversThem() throws {
        var chart = Chart(kind: "test", title: "t", xTitle: "window", yTitle: "stalls", xAxis: .numeric)
        chart.series = [Chart.Series(name: "lru", style: .palette(0), points: [
            Chart.Point(x: 10, y: 20, note: "a", range: 15...38), Chart.Point(x: 20, y: 25, note: "b"),
        ])]
        let svg = try #require(MarkupElement.parse(SVGChart.render(chart)).all("svg", class: "chart").first)
        let series = try #require(svg.all("g", class: "series").first)
        #expect(series.all("path", class: "point").count == 2)
        #expect(series.all("path", class: "whisker").count == 1, "only the point with a range")
        // Both axes from 0; the y axis reaches the whisker's top (38), not only the means.
        #expect(Self.ticks(svg, "x").first == "0" && Self.ticks(svg, "y").first == "0")
        #expect(Self.ticks(svg, "y").last == "40")
    }

    @Test func referenceLinesBeyondTheDataAreNotedNotDrawn() throws {
        var chart = Chart(kind: "test", title: "t", xTitle: "window", yTitle: "memory (MiB)", xAxis: .numeric)
        chart.series = [Chart.Series(name: "lru", style: .palette(0), points: [Chart.Point(x: 0, y: 56, note: ""), Chart.Point(x: 50, y: 63, note: "")])]
        chart.referenceLines = [
            Chart.ReferenceLine(orientation: .horizontal, value: 60, label: "inside", colour: "#000", dash: ""),
            Chart.ReferenceLine(orientation: .horizontal, value: 1000, label: "warning", colour: "#000", dash: ""),
        ]
        let svg = try #require(MarkupElement.parse(SVGChart.render(chart)).all("svg", class: "chart").first)
        #expect(svg.all("g", class: "reference").map { $0.attributes["data-reference"] ?? "" } == ["inside"])
        #expect(svg.all("text", class: "chart-note").map(\.allText) == ["warning: off the axis, every point is below it."])
        #expect(Self.ticks(svg, "y").first == "0" && Self.ticks(svg, "y").last == "80", "memory from 0 to the data, not to 1000")
    }

    @Test func longSubtitlesAndNotesWrapWithinTheChart() throws {
        var chart = Chart(kind: "test", title: "t", xTitle: "x", yTitle: "y", xAxis: .numeric)
        chart.subtitle = Array(repeating: "network lte · launches 1", count: 6).joined(separator: " · ")
        chart.notes = [Array(repeating: "word", count: 40).joined(separator: " ")]
        let svg = try #require(MarkupElement.parse(SVGChart.render(chart)).all("svg", class: "chart").first)
        for (kind, text) in [("chart-subtitle", chart.subtitle), ("chart-note", chart.notes[0])] {
            let element = try #require(svg.all("text", class: kind).first)
            let lines = element.all("tspan").map(\.allText)
            #expect(lines.count > 1)
            #expect(lines.joined() == text, "the lines joined are the text again")
            #expect(lines.allSatisfy { Double($0.count) * SVGChart.characterWidth <= SVGChart.plotRight - SVGChart.plotLeft + 16 + SVGChart.characterWidth })
        }
    }

    @Test(arguments: [
        // A decade or more: the 1–3–10 ladder, so the handful and the hundreds differ.
        ([6.7, 275.3, 615], [10.0, 30, 100, 300], ["10", "30", "100", "300"]),
        ([0, 0.3, 600], [1.0, 3, 10, 30, 100, 300], ["1", "3", "10", "30", "100", "300"]),
        // Within a decade: nice linear steps.
        ([2150, 2260.3, 3343], [2250.0, 2500, 2750, 3000, 3250], ["2250", "2500", "2750", "3000", "3250"]),
        ([7, 7], [], []),
        // Too many rungs: thinned to at most eight breaks.
        ([0.5, 10_000_000], [3.0, 30, 300, 3000, 30000, 300000, 3000000], ["3", "30", "300", "3000", "30000", "300000", "3000000"]),
    ])
    func heatScaleBreaksSuitTheValues(values: [Double], breaks: [Double], labels: [String]) {
        let scale = HeatScale(covering: values)
        #expect(scale.breaks == breaks)
        #expect(scale.labels == labels)
        #expect(scale.colours.count == breaks.count + 1 && Set(scale.colours).count == scale.colours.count)
        #expect(scale.colour(values.min()!) == scale.colours.first && scale.colour(values.max()!) == scale.colours.last)
    }

    @Test func heatScaleColoursDarkenClassByClassSoGreyscaleKeepsTheOrder() {
        func luma(_ colour: String) -> Int {
            let value = Int(colour.dropFirst(), radix: 16)!
            return 299 * (value >> 16) + 587 * (value >> 8 & 0xff) + 114 * (value & 0xff)
        }
        let lumas = HeatScale.palette.map(luma)
        #expect(zip(lumas, lumas.dropFirst()).allSatisfy { $0 > $1 + 10_000 }, "\(lumas)")
        let scale = HeatScale(covering: [0, 600])
        #expect(scale.colours.first == HeatScale.palette.first && scale.colours.last == HeatScale.palette.last)
        #expect(scale.textColour(0) == "#000" && scale.textColour(600) == "#fff")
    }

    @Test func aHeatmapTitleLongerThanThePanelWrapsAfterAColonOrParenthesisAndPushesThePlotDown() throws {
        func render(_ title: String) throws -> MarkupElement {
            var heatmap = Heatmap(kind: "test-heatmap", title: title, xTitle: "window", yTitle: "cache", columns: ["0"],
                                  rows: ["56.3 MiB"], scale: HeatScale(covering: [1, 2]))
            heatmap.cells = [Heatmap.Cell(column: 0, row: 0, value: 1, text: "1", note: "a", mark: nil)]
            return try #require(MarkupElement.parse(SVGHeatmap.render(heatmap)).all("svg", class: "heatmap").first)
        }
        let long = "kingfisher:background-decode:prefetch=10(lru:max-age=300:refresh=1)"
        let wrapped = try render(long)
        let lines = try #require(wrapped.all("text", class: "chart-title").first).all("tspan").map(\.allText)
        #expect(lines == ["kingfisher:background-decode:", "prefetch=10(lru:max-age=300:refresh=1)"])
        #expect(lines.allSatisfy { 84 + Double($0.count) * SVGChart.titleCharacterWidth <= SVGHeatmap.width - 8 }, "inside the panel")
        let top = { (svg: MarkupElement) in Double(svg.all("g", class: "cell").first!.all("rect").first!.attributes["y"]!)! }
        #expect(try top(wrapped) == top(render("lru")) + 16, "one more line, 16 px lower")
        #expect(try render("lru").all("text", class: "chart-title").first?.allText == "lru")
    }

    @Test func heatmapCellsCarryTheirPlaceMarkAndText() throws {
        var heatmap = Heatmap(kind: "test-heatmap", title: "lru", xTitle: "window", yTitle: "cache", columns: ["0", "5"],
                              rows: ["56.3 MiB", "112.5 MiB"], scale: HeatScale(covering: [6.7, 615]))
        heatmap.cells = [
            Heatmap.Cell(column: 0, row: 0, value: 615, text: "615", note: "a", mark: nil),
            Heatmap.Cell(column: 1, row: 0, value: 6.7, text: "6.7", note: "b", mark: .chosen),
            Heatmap.Cell(column: 1, row: 1, value: 6.7, text: "6.7", note: "c", mark: .tied),
            Heatmap.Cell(column: 0, row: 1, value: 615, text: "615", note: "d <&>", mark: .excluded),
        ]
        let svg = try #require(MarkupElement.parse(SVGHeatmap.render(heatmap)).all("svg", class: "heatmap").first)
        #expect(svg.attributes["data-chart"] == "test-heatmap")
        let cells = svg.all("g", class: "cell")
        #expect(cells.map { [$0.attributes["data-x"] ?? "", $0.attributes["data-y"] ?? "", $0.attributes["data-mark"] ?? ""] }
            == [["0", "56.3 MiB", ""], ["5", "56.3 MiB", "chosen"], ["5", "112.5 MiB", "tied"], ["0", "112.5 MiB", "excluded"]])
        #expect(cells.map { $0.all("text", class: "cell-value").first?.allText } == ["615", "6.7", "6.7", "615"])
        #expect(cells[3].all("title").first?.allText == "d <&>")
        // Only the chosen cell has a star, only the excluded one hatching; the row labels bottom to top.
        #expect(cells.map { $0.all("path", class: "star").count } == [0, 1, 0, 0])
        #expect(cells.map { $0.all("line", class: "hatch").isEmpty } == [true, true, true, false])
        #expect(cells[0].all("rect").first?.attributes["fill"] == heatmap.scale.colour(615))
        #expect(cells[3].all("rect").first?.attributes["fill"] == SVGHeatmap.excludedFill)
        let rows = svg.all("g", class: "axis").first { $0.attributes["class"] == "axis y" }!.all("text", class: "tick")
        #expect(rows.map(\.allText) == ["56.3 MiB", "112.5 MiB"])
        #expect(Double(rows[0].attributes["y"]!)! > Double(rows[1].attributes["y"]!)!, "the first row at the bottom")

        let key = HeatmapKey(kind: "test-key", title: "stalls", scale: heatmap.scale,
                             marks: [HeatmapKey.Mark(mark: .chosen, meaning: "recommended"), HeatmapKey.Mark(mark: .excluded, meaning: "over")])
        let keySVG = try #require(MarkupElement.parse(SVGHeatmap.render(key)).all("svg", class: "heatmap-key").first)
        #expect(keySVG.all("rect", class: "key-class").map { $0.attributes["fill"] ?? "" } == heatmap.scale.colours)
        #expect(keySVG.all("text", class: "tick").map(\.allText) == heatmap.scale.labels)
        #expect(keySVG.all("g", class: "key-mark").map { $0.attributes["data-mark"] ?? "" } == ["chosen", "excluded"])
    }

    @Test func coordinatesAreFixedDecimals() {
        #expect(SVGText.px(12.345) == "12.3")
        #expect(SVGText.px(-4.25) == "-4.3")
        #expect(SVGText.px(-0.01) == "0.0")
        #expect(SVGText.escape("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;")
    }
}
