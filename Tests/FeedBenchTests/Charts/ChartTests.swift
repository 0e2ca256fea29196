@testable import FeedBench
import Testing

/// The chart primitives: nice axis ticks, the window axis rule, and the SVG a chart becomes.
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

    @Test func coordinatesAreFixedDecimals() {
        #expect(SVGText.px(12.345) == "12.3")
        #expect(SVGText.px(-4.25) == "-4.3")
        #expect(SVGText.px(-0.01) == "0.0")
        #expect(SVGText.escape("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;")
    }
}
