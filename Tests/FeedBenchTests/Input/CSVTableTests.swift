import TestSupport
import Testing
@testable import FeedBench

/// RFC 4180 as `CSVTable` reads it: quoted fields, embedded commas, quotes and line ends,
/// CRLF, and one-line refusals that name the line.
@Suite(.scratchFolder) struct CSVTableTests {
    func parse(_ text: String) throws -> CSVTable { try CSVTable(parsing: Array(text.utf8), source: "t.csv") }

    func refusal(_ text: String) -> InputError? {
        do { _ = try parse(text); return nil } catch let error as InputError { return error } catch { return nil }
    }

    @Test func readsAHeaderAndRecordsWithTheirLines() throws {
        let table = try parse("a,b,c\n1,2,3\n4,5,6\n")
        #expect(table.header == .init(line: 1, fields: ["a", "b", "c"]))
        #expect(table.records == [.init(line: 2, fields: ["1", "2", "3"]), .init(line: 3, fields: ["4", "5", "6"])])
    }

    @Test func unquotesFieldsWithCommasQuotesAndLineEnds() throws {
        let table = try parse("name,note\n\"a,b\",\"say \"\"hi\"\"\"\n\"two\nlines\",\"crlf\r\nkept\"\nlast,\"\"\n")
        #expect(table.records.map(\.fields) == [["a,b", "say \"hi\""], ["two\nlines", "crlf\r\nkept"], ["last", ""]])
        // A record's line is where it starts; a quoted line end moves the count on.
        #expect(table.records.map(\.line) == [2, 3, 6])
    }

    @Test func acceptsCRLFAByteOrderMarkBlankLinesAndNoFinalLineEnd() throws {
        let table = try parse("\u{FEFF}a,b\r\n1,2\r\n\r\n\n3,4")
        #expect(table.header.fields == ["a", "b"])
        #expect(table.records == [.init(line: 2, fields: ["1", "2"]), .init(line: 5, fields: ["3", "4"])])
    }

    /// Found by fuzzing the round trip: a one-column record holding an empty field is `""`;
    /// an empty line is no record at all.
    @Test func aQuotedEmptyFieldIsARecordAndAnEmptyLineIsNot() throws {
        let quoted = try CSVTable(parsing: Array("\n\"x\"\r\n\"\"\r\n".utf8), source: "t.csv")
        #expect(quoted.header == .init(line: 2, fields: ["x"]) && quoted.records == [.init(line: 3, fields: [""])])
        #expect(try CSVTable(parsing: Array("x\n\n".utf8), source: "t.csv").records.isEmpty)
    }

    @Test func keepsEmptyFieldsAtEitherEnd() throws {
        let table = try parse("a,b,c\n,x,\n,,\n")
        #expect(table.records.map(\.fields) == [["", "x", ""], ["", "", ""]])
    }

    @Test func refusesMalformedQuotingWithTheLine() {
        #expect(refusal("a,b\n1,x\"y\n")?.description == "t.csv:2: expected a quote only around a whole field, found \"x\\x22\"")
        #expect(refusal("a,b\n1,\"x\"y\n")?.description == "t.csv:2: expected a comma or line end after a closing quote, found \"y\"")
        #expect(refusal("a,b\n1,2\n3,\"open\nstill open\n")?.description
            == "t.csv:3: expected a closing quote for the field opened here, found the end of the file")
        #expect(refusal("a,b\r1,2\n")?.description == "t.csv:1: expected a line feed after a carriage return, found \"1\"")
    }

    @Test func refusesARecordWithAnotherFieldCount() {
        #expect(refusal("a,b\n1,2\n1,2,3\n")?.description == "t.csv:3: expected 2 fields as in the header, found 3")
        #expect(refusal("a,b\n\"1,2\"\n")?.line == 2)
    }

    @Test func refusesAnEmptyFileAndAMissingOne() {
        #expect(refusal("")?.description == "t.csv:1: expected a header line, found an empty file")
        #expect(refusal("\n\r\n")?.line == 1)
        #expect(throws: InputError(source: "/nonexistent/r.csv", "cannot open: No such file or directory")) {
            try CSVTable.read(path: "/nonexistent/r.csv")
        }
    }

    @Test func readsBackWhatCSVTextWritesForAnyText() throws {
        // Seeded random fields drawn from the characters that need quoting, and others.
        var generator = SeededGenerator(seed: 7)
        func draw(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
        let alphabet: [Character] = [",", "\"", "\n", "\r", "a", "b", " ", "é", "1"]
        for _ in 0..<200 {
            let rows = (0..<3).map { _ in (0..<4).map { _ in String((0..<draw(7)).map { _ in alphabet[draw(alphabet.count)] }) } }
            let text = (["w,x,y,z"] + rows.map { $0.map(CSVText.field).joined(separator: ",") }).joined(separator: "\r\n")
            let table = try parse(text)
            #expect(table.records.map(\.fields) == rows, "\(text.debugDescription)")
        }
    }

    @Test func readsAFileFromDisk() throws {
        let path = try SharedFiles.write("a,b\n\"x,y\",2\n")
        #expect(try CSVTable.read(path: path).records == [.init(line: 2, fields: ["x,y", "2"])])
    }
}
