import Testing
@testable import FeedBench

/// Reading `bench serve --log` back: arrival order, which requests are image accesses, refusals.
@Suite struct RequestLogFileTests {
    /// The header of logs written before `new_connection` and `protocol` (still read).
    static let earlierHeader = RequestLogFile.earlierColumns.joined(separator: ",") + "\n"

    /// `lines` under the earlier header, whose 9 columns most tests here use.
    static func parse(_ lines: [String], header: String = earlierHeader) throws -> [RequestLogFile.Record] {
        try RequestLogFile.records(parsing: Array((header + lines.joined(separator: "\n")).utf8), source: "log.csv")
    }

    @Test func theCurrentColumnsSayWhoOpenedAConnectionAndTheEarlierOnesAreReadAsFirstUse() throws {
        let current = try Self.parse(["1,GET,/images/7.jpg,200,300,300,0,50,3,1,h2,low,", "2,GET,/images/8.jpg,200,300,300,0,9,3,0,h2,high,",
                                      "3,GET,/images/9.jpg,200,300,300,0,9,3,0,http/1.1,,"],
                                     header: RequestLogFile.header)
        #expect(current.map(\.newConnection) == [true, false, false] && current.map(\.connection) == [3, 3, 3])
        #expect(current.map(\.httpProtocol) == ["h2", "h2", "http/1.1"] && current.map(\.priority) == ["low", "high", ""])
        #expect(current[0].csvLine == "1.000,GET,/images/7.jpg,200,300,300,0.000,50.000,3,1,h2,low,\n")
        // Before `sent_ms`: 12 columns, each request sent at its arrival.
        let unsent = try Self.parse(["1,GET,/images/7.jpg,200,300,300,0,50,3,1,h2,low"], header: RequestLogFile.unsentColumns.joined(separator: ",") + "\n")
        #expect(unsent.map(\.priority) == ["low"] && unsent[0].sent == nil && unsent[0].sentOrArrival == 1_000_000)
        #expect(RequestLogFile.startsWithCurrentHeader(Array((RequestLogFile.unsentColumns.joined(separator: ",") + "\n").utf8)))
        // Before `priority`: 11 columns, the priority not known.
        let previous = try Self.parse(["1,GET,/images/7.jpg,200,300,300,0,50,3,1,http/1.1"],
                                      header: RequestLogFile.previousColumns.joined(separator: ",") + "\n")
        #expect(previous.map(\.newConnection) == [true] && previous.map(\.priority) == [""])
        #expect(RequestLogFile.startsWithCurrentHeader(Array((RequestLogFile.previousColumns.joined(separator: ",") + "\n").utf8)))
        let earlier = try Self.parse(["1,GET,/images/7.jpg,200,300,300,0,50,3", "2,GET,/images/8.jpg,200,300,300,0,9,3",
                                      "3,GET,/images/9.jpg,200,300,300,0,9,4"])
        #expect(earlier.map(\.newConnection) == [true, false, true])
        // A request that crossed no network (`bench serve`'s conditions, a 404) names no
        // connection, and opened none.
        let local = try Self.parse(["4,GET,/_conditions,200,900,,0,1,,0,http/1.1,,"], header: RequestLogFile.header)
        #expect(local[0].connection == nil && !local[0].newConnection && local[0].csvLine == "4.000,GET,/_conditions,200,900,,0.000,1.000,,0,http/1.1,,\n")
        for (line, field) in [("1,GET,/,200,0,,0,0,1,2,http/1.1,,", "new_connection"), ("1,GET,/,200,0,,0,0,1,1,http 2,,", "protocol"),
                              ("1,GET,/,200,0,,0,0,1,1,h2,urgent,", "priority"), ("1,GET,/,200,0,,0,0,,1,h2,,", "new_connection")] {
            #expect {
                _ = try Self.parse([line], header: RequestLogFile.header)
            } throws: { error in (error as? InputError)?.field == field }
        }
    }

    /// `sent_ms`, when the server's model took the request, is read and written to the
    /// nanosecond, so that a replay sends it exactly then; empty for one that crossed no network.
    @Test func whenARequestWentOntoTheNetworkIsKeptToTheNanosecond() throws {
        let records = try Self.parse(["1.5,GET,/images/7.jpg,200,300,300,0,50,3,1,http/1.1,,4.000001", "2,GET,/nope,404,0,,0,1,4,1,http/1.1,,"],
                                     header: RequestLogFile.header)
        #expect(records.map(\.sent) == [4_000_001, nil] && records.map(\.sentOrArrival) == [4_000_001, 2_000_000])
        #expect(records[0].csvLine.hasSuffix(",http/1.1,,4.000001\n") && records[1].csvLine.hasSuffix(",http/1.1,,\n"))
        #expect(try Self.parse([records[0].csvLine], header: RequestLogFile.header).map(\.sent) == [4_000_001], "it reads back as written")
        #expect {
            _ = try Self.parse(["1,GET,/,200,0,,0,0,1,1,h2,,soon"], header: RequestLogFile.header)
        } throws: { error in (error as? InputError)?.field == "sent_ms" }
    }

    @Test func recordsComeInArrivalOrderWithTiesInFileOrder() throws {
        let records = try Self.parse([
            "20.000,GET,/images/2.jpg,200,5,5,1.000,19.500,2",
            "10.5,GET,/images/1.jpg,200,5,5,1,2.25,1",
            "20.000,GET,/images/3.jpg,200,5,5,1,2,1",
        ])
        #expect(records.map(\.path) == ["/images/1.jpg", "/images/2.jpg", "/images/3.jpg"])
        #expect(records.map(\.line) == [3, 2, 4])
        #expect(records[0].time == 10_500_000 && records[0].duration == 2_250_000 && records[1].duration == 19_500_000)
    }

    @Test func imageAccessesAreWholeImagesAnswered200Or206Or304() throws {
        let records = try Self.parse([
            "1,GET,/images/7.jpg,200,300,300,0,0,1",
            "2,GET,/images/7.jpg?size=s,206,10,300,0,0,1",
            "3,GET,/images/7.jpg,304,0,300,0,0,1",
            "4,GET,/images/7.jpg,416,80,300,0,0,1",
            "5,GET,/images/9.jpg,503,20,,0,0,1",
            "6,PUT,/images/7.jpg,405,50,,0,0,1",
            "7,GET,/v1/images/search,200,900,,0,0,1",
            "8,GET,\"/images/7.jpg?a=1,2\",200,300,300,0,0,1",
        ])
        let accesses = records.compactMap { $0.imageAccess.map { [$0.id, UInt64($0.bytes)] } }
        #expect(accesses == [[7, 300], [7, 300], [7, 300], [7, 300]])
    }

    @Test func imageIDsAreDigitsBetweenImagesAndJpg() {
        #expect(RequestLogFile.imageID(path: "/images/42.jpg") == 42)
        #expect(RequestLogFile.imageID(path: "/images/42.jpg?x=1") == 42)
        for path in ["/images/.jpg", "/images/4a.jpg", "/images/42.png", "/img/42.jpg", "/images/-1.jpg", "/images/99999999999999999999.jpg"] {
            #expect(RequestLogFile.imageID(path: path) == nil, "\(path)")
        }
    }

    @Test func theHeaderIsRecognisedWithOrWithoutAByteOrderMark() {
        let header = Array(RequestLogFile.header.utf8)
        #expect(RequestLogFile.startsWithHeader(header))
        #expect(RequestLogFile.startsWithHeader([0xEF, 0xBB, 0xBF] + header))
        #expect(RequestLogFile.startsWithHeader(header.dropLast() + [13, 10]))
        #expect(!RequestLogFile.startsWithHeader(Array("time,obj_id,obj_size\n".utf8)))
        #expect(!RequestLogFile.startsWithHeader(header.dropLast() + Array(",extra\n".utf8)))
    }

    @Test func theKeyTraceHasTimesInWholeMillisecondsAndOnlyImageAccesses() throws {
        let text = Self.earlierHeader + "2.999,GET,/images/4.jpg,200,8,8,0,0,1\n0.1,GET,/v1/images/search,200,9,,0,0,1\n1.5,GET,/images/3.jpg,304,0,6,0,0,1\n"
        let trace = try RequestLogFile.keyTrace(parsing: Array(text.utf8), source: "log.csv")
        #expect(trace.times == [1, 2] && trace.keys == [3, 4] && trace.sizes == [6, 8])
        let none = Self.earlierHeader + "1,GET,/v1/images/search,200,9,,0,0,1\n"
        #expect(throws: InputError(source: "log.csv", "expected image requests (GET /images/{id}.jpg answered 200, 206 or 304), found none")) {
            try RequestLogFile.keyTrace(parsing: Array(none.utf8), source: "log.csv")
        }
    }

    @Test(arguments: [
        ("-1,GET,/,200,0,,0,0,1", "time_ms", "milliseconds (digits, up to 6 decimals)"),
        ("1.,GET,/,200,0,,0,0,1", "time_ms", "milliseconds (digits, up to 6 decimals)"),
        ("1,get,/,200,0,,0,0,1", "method", "an HTTP method"),
        ("1,GET,/,99,0,,0,0,1", "status", "a whole number in 100…599"),
        ("1,GET,/,200,x,,0,0,1", "bytes", "a whole number of at least 0"),
        ("1,GET,/,200,0,,0,1e3,1", "duration_ms", "milliseconds (digits, up to 6 decimals)"),
        ("1,GET,/,200,0,,0,0,0", "connection", "a whole number in 1…2147483647"),
    ])
    func aBadFieldIsRefusedWithItsLineAndColumn(line: String, field: String, expected: String) throws {
        #expect {
            _ = try Self.parse([line])
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.line == 2 && error.field == field && error.message.hasPrefix("expected \(expected), found")
        }
    }

    @Test func anotherHeaderOrFieldCountIsRefused() {
        #expect(throws: InputError.self) { try RequestLogFile.records(parsing: Array("time,obj_id,obj_size\n1,2,3\n".utf8), source: "x") }
        #expect(throws: InputError.self) { try Self.parse(["1,GET,/,200,0,0,0,1"]) }
    }
}
