import TestSupport
import Testing
@testable import FeedBench

/// What the streaming HAR reader hands out, what it accepts and what it refuses, and how it says
/// so; every case also read in tiny chunks, so that no token's split across reads goes unseen.
@Suite(.scratchFolder) struct HARReaderTests {
    /// A HAR 1.2 entry as Chrome writes it for an image over HTTP/2: 10 lines.
    static let entry = """
          {
            "startedDateTime": "2026-11-23T10:49:09.123Z",
            "time": 120.5,
            "request": {"method": "GET", "url": "https://img.example/1.jpg", "httpVersion": "h2", "headers": [{"name": "accept", "value": "image/webp"}], "bodySize": 0, "headersSize": -1},
            "response": {"status": 200, "statusText": "", "httpVersion": "h2", "headers": [{"name": "content-type", "value": "image/jpeg"}, {"name": "Cache-Control", "value": "max-age=60"}], "redirectURL": "", "headersSize": -1, "bodySize": 4000, "_transferSize": 4100, "content": {"size": 4000, "mimeType": "image/jpeg"}},
            "cache": {},
            "timings": {"blocked": 2.5, "dns": -1, "connect": -1, "ssl": -1, "send": 0.25, "wait": 100, "receive": 17.75},
            "serverIPAddress": "192.0.2.7",
            "connection": "443"
          }
    """

    /// `entry` as read from line `line` at `index`.
    static func expected(index: Int, line: Int) -> HAREntry {
        HAREntry(index: index, line: line, startedDateTime: "2026-11-23T10:49:09.123Z", time: 120.5, method: "GET",
                 url: "https://img.example/1.jpg", httpVersion: "h2", requestHeaders: [HARHeader(name: "accept", value: "image/webp")],
                 status: 200, responseHeaders: [HARHeader(name: "content-type", value: "image/jpeg"), HARHeader(name: "Cache-Control", value: "max-age=60")],
                 contentSize: 4000, mimeType: "image/jpeg", bodySize: 4000,
                 timings: HARTimings(blocked: 2.5, send: 0.25, wait: 100, receive: 17.75),
                 serverIPAddress: "192.0.2.7", connection: "443", transferSize: 4100)
    }

    /// A capture of `entries`; the first starts on line 7, each next one 10 lines further.
    static func capture(_ entries: [String], version: String = #""version": "1.2""#) -> String {
        """
        {
          "log": {
            \(version),
            "creator": {"name": "Test", "version": "1"},
            "pages": [],
            "entries": [
        \(entries.joined(separator: ",\n"))
            ]
          }
        }

        """
    }

    /// `capture` with one entry edited.
    static func capture(editing old: String, to new: String) -> String {
        precondition(entry.contains(old), "no \(old) in the entry")
        return capture([entry, entry.replacingOccurrences(of: old, with: new)])
    }

    func read(_ text: String, chunkSize: Int = 1 << 20, maxEntryBytes: Int = 64 << 20) throws -> ([HAREntry], HARSummary) {
        var entries: [HAREntry] = []
        let reader = HARReader(input: .memory(Array(text.utf8)), path: "t.har", maxEntryBytes: maxEntryBytes, chunkSize: chunkSize)
        let summary = try reader.forEachEntry { entries.append($0) }
        return (entries, summary)
    }

    /// The refusal of `text`, the same whether read in one chunk or byte by byte.
    func refusal(_ text: String, maxEntryBytes: Int = 64 << 20) -> InputError? {
        func attempt(_ chunkSize: Int) -> InputError? {
            do { _ = try read(text, chunkSize: chunkSize, maxEntryBytes: maxEntryBytes); return nil } catch let error as InputError { return error } catch { return nil }
        }
        let whole = attempt(1 << 20), byteByByte = attempt(1)
        // The same place; the bytes quoted as found end with the chunk.
        #expect(byteByByte?.line == whole?.line && byteByByte?.field == whole?.field, "read byte by byte")
        return whole
    }

    @Test func readsEachEntryWithItsFieldsAndLine() throws {
        let (entries, summary) = try read(Self.capture([Self.entry, Self.entry]))
        #expect(entries == [Self.expected(index: 0, line: 7), Self.expected(index: 1, line: 17)])
        #expect(summary == HARSummary(version: "1.2", creatorName: "Test", creatorVersion: "1", pages: 0, entries: 2))
    }

    @Test(arguments: [1, 2, 3, 5, 64, 4096])
    func readsTheSameInChunksOfAnySize(chunkSize: Int) throws {
        let text = "\u{FEFF}" + Self.capture([Self.entry, Self.entry.replacingOccurrences(of: #""mimeType": "image/jpeg""#,
                                                                                         with: #""mimeType": "image/jpeg", "text": "a \"]}\" \\ \u00e9 z""#)])
        let (whole, summary) = try read(text)
        let (chunked, chunkedSummary) = try read(text, chunkSize: chunkSize)
        #expect(chunked == whole && chunkedSummary == summary)
        #expect(whole.map(\.line) == [7, 17] && whole[1].contentText == "a \"]}\" \\ é z")
    }

    @Test func isNotFooledByKeysBracketsOrEscapesInsideStrings() throws {
        let tricky = #"\"entries\": [ ] } { \\\" \\ \u0022]\u005d \/"#
        let text = """
            {"comment": "\(tricky)", "_tool": {"entries": [1, {"log": "]}"}], "x": [[], {}]},
             "log": {"comment": "\(tricky)", "_extra": ["{", "[", {"entries": "}"}, -1.5e3, true, null],
                     "version": "1.2", "creator": {"name": "a \\"quoted\\" tool"},
                     "entries": [\(Self.entry.replacingOccurrences(of: #""mimeType": "image/jpeg""#, with: #""mimeType": "image/jpeg", "text": "\#(tricky)""#))]},
             "_after": "\(tricky)"}
            """
        let (entries, summary) = try read(text)
        #expect(entries.count == 1 && summary.entries == 1 && summary.creatorName == "a \"quoted\" tool")
        #expect(entries.first?.contentText == #""entries": [ ] } { \" \ "]] /"#)
    }

    @Test func readsKeysWrittenWithEscapes() throws {
        let text = #"{"\u006cog": {"version": "1.2", "\u0065ntries": [\#(Self.entry)]}}"#
        #expect(try read(text).0.count == 1)
    }

    @Test func acceptsAByteOrderMarkCRLFAndWhitespaceEverywhere() throws {
        let text = "\u{FEFF} \r\n\t{ \"log\"\r\n :\t{ \"entries\" : [ \r\n" + Self.entry.replacingOccurrences(of: "\n", with: "\r\n")
            + " \r\n , \r\n" + Self.entry + "\r\n] \r\n, \"version\" : \"1.1\" } \r\n } \r\n\r\n"
        let (entries, summary) = try read(text)
        #expect(entries.map(\.line) == [4, 15] && summary.version == "1.1")
    }

    @Test func readsLogMembersInAnyOrder() throws {
        let text = """
            {"log": {"entries": [\(Self.entry)],
                     "pages": [{"id": "page_1", "title": "feed"}, {"id": "page_2", "title": "feed"}],
                     "browser": {"name": "Firefox", "version": "111.0.1"},
                     "creator": {"name": "Firefox", "version": "111.0.1"}, "version": "1.2"}}
            """
        let (entries, summary) = try read(text)
        #expect(entries.count == 1)
        #expect(summary == HARSummary(version: "1.2", creatorName: "Firefox", creatorVersion: "111.0.1",
                                      browserName: "Firefox", browserVersion: "111.0.1", pages: 2, entries: 1))
    }

    @Test func readsHTTP2RedirectNotModifiedAndGzipEntries() throws {
        let http2 = Self.entry
            .replacingOccurrences(of: #""dns": -1, "connect": -1, "ssl": -1"#, with: #""dns": -1, "connect": -1, "ssl": -1"#)
        let redirect = Self.entry
            .replacingOccurrences(of: #""status": 200"#, with: #""status": 301"#)
            .replacingOccurrences(of: #""redirectURL": """#, with: #""redirectURL": "https://img.example/2.jpg""#)
        let notModified = Self.entry
            .replacingOccurrences(of: #""status": 200"#, with: #""status": 304"#)
            .replacingOccurrences(of: #""headersSize": -1, "bodySize": 4000, "_transferSize": 4100, "content": {"size": 4000"#,
                                  with: #""headersSize": 180, "bodySize": 0, "content": {"size": 0"#)
        let gzip = Self.entry
            .replacingOccurrences(of: #"{"name": "Cache-Control", "value": "max-age=60"}"#, with: #"{"name": "Content-Encoding", "value": "gzip"}"#)
            .replacingOccurrences(of: #""headersSize": -1, "bodySize": 4000, "_transferSize": 4100, "content": {"size": 4000, "mimeType": "image/jpeg"}"#,
                                  with: #""headersSize": 300, "bodySize": 1200, "content": {"size": 5000, "mimeType": "application/json; charset=utf-8"}"#)
        let (entries, _) = try read(Self.capture([http2, redirect, notModified, gzip]))
        #expect(entries[0].timings == HARTimings(blocked: 2.5, send: 0.25, wait: 100, receive: 17.75) && entries[0].httpVersion == "h2")
        #expect(entries[1].status == 301 && entries[1].redirectURL == "https://img.example/2.jpg" && entries[0].redirectURL == nil)
        #expect(entries[2].status == 304 && entries[2].contentSize == 0 && entries[2].transferredBytes == 180)
        #expect(entries[3].responseHeader("content-encoding") == "gzip" && entries[3].contentSize == 5000)
        #expect(entries[3].transferredBytes == 1500 && entries[3].contentType == "application/json")
    }

    @Test func findsHeadersTypesAndBytesOnTheWire() {
        var entry = Self.expected(index: 0, line: 1)
        #expect(entry.responseHeader("CACHE-control") == "max-age=60" && entry.responseHeader("ETag") == nil)
        #expect(entry.contentType == "image/jpeg" && entry.transferredBytes == 4100)
        entry.mimeType = "  Image/WebP ; q=1"
        #expect(entry.contentType == "image/webp")
        entry.mimeType = ""
        entry.responseHeaders = [HARHeader(name: "Content-Type", value: "IMAGE/AVIF")]
        #expect(entry.contentType == "image/avif")
        entry.responseHeaders = []
        #expect(entry.contentType == nil)
        entry.transferSize = nil
        #expect(entry.transferredBytes == 4000)
        entry.headersSize = 250
        #expect(entry.transferredBytes == 4250)
        entry.bodySize = nil
        #expect(entry.transferredBytes == nil)
    }

    /// What Firefox, Playwright and Charles write against the letter of HAR 1.2, as found in
    /// the real captures of Tests/Fixtures/HAR.
    @Test func readsTheDeviationsOfRealExporters() throws {
        let aborted = Self.entry.replacingOccurrences(of: #""status": 200"#, with: #""status": 0"#)
        let playwright = Self.entry.replacingOccurrences(of: #""receive": 17.75"#, with: #""receive": -1"#)
        let firefoxCacheHit = Self.entry
            .replacingOccurrences(of: #""time": 120.5"#, with: #""time": 0"#)
            .replacingOccurrences(of: #"{"blocked": 2.5, "dns": -1, "connect": -1, "ssl": -1, "send": 0.25, "wait": 100, "receive": 17.75}"#, with: "{}")
            .replacingOccurrences(of: #""content": {"size": 4000, "#, with: #""content": {"#)
        let charles = Self.entry.replacingOccurrences(of: #""redirectURL": """#, with: #""redirectURL": null"#)
        let (entries, _) = try read(Self.capture([aborted, playwright, firefoxCacheHit, charles]))
        #expect(entries[0].status == 0)
        #expect(entries[1].timings.receive == nil && entries[1].timings.wait == 100)
        #expect(entries[2].timings == HARTimings(send: 0, wait: 0, receive: 0) && entries[2].contentSize == nil)
        #expect(entries[3].redirectURL == nil)
    }

    @Test func readsAFileFromDisk() throws {
        let path = try SharedFiles.write(Self.capture([Self.entry]), name: "capture.har")
        var lines: [Int] = []
        let summary = try HARReader(path: path).forEachEntry { lines.append($0.line) }
        #expect(lines == [7] && summary.entries == 1)
    }

    // MARK: - Refusals

    @Test func refusesAFileThatIsNotAJSONObject() {
        #expect(refusal("hello")?.description == #"t.har:1: expected a HAR capture (a JSON object { "log": … }), found "hello""#)
        #expect(refusal("\n\n[1, 2]")?.description == #"t.har:3: expected a HAR capture (a JSON object { "log": … }), found "[1, 2]""#)
        #expect(refusal("\u{FEFF} \n")?.description == #"t.har:2: expected a HAR capture (a JSON object { "log": … }), found an empty file"#)
        #expect(refusal("\u{FEFF}\u{FEFF}{}")?.line == 1)
    }

    @Test func refusesACaptureWithoutALogObject() {
        #expect(refusal(#"{"version": "1.2"}"#)?.description == "t.har:1: log: expected a log object, found none")
        #expect(refusal(#"{"log": [1]}"#)?.description == #"t.har:1: log: expected an object, found "[1]}""#)
        #expect(refusal(#"{"log": {"version": "1.2", "entries": []}, "log": {}}"#)?.message == "expected one log, found a second")
    }

    @Test func refusesALogWithoutAnEntriesArray() {
        #expect(refusal("{\"log\": {\"version\": \"1.2\"\n}}")?.description == "t.har:2: log.entries: expected an array of entries, found none")
        #expect(refusal(#"{"log": {"version": "1.2", "entries": {}}}"#)?.description == #"t.har:1: log.entries: expected an array, found "{}}}""#)
    }

    @Test func refusesAMissingOrUnknownVersion() {
        let missing = refusal(Self.capture([Self.entry], version: #""comment": """#))
        #expect(missing?.description == #"t.har:18: log.version: expected "1.1" or "1.2", found none"#)
        #expect(refusal(Self.capture([Self.entry], version: #""version": "1.3""#))?.description
            == #"t.har:3: log.version: expected "1.1" or "1.2", found a string "1.3""#)
        #expect(refusal(Self.capture([Self.entry], version: #""version": 1.2"#))?.message == #"expected "1.1" or "1.2", found 1.2"#)
    }

    /// The documented contract: a refusal can follow entries already handed out, and refuses
    /// the capture as a whole.
    @Test func refusesAVersionAfterTheEntriesOnceTheyAreHandedOut() {
        let text = #"{"log": {"entries": [\#(Self.entry)], "version": "0.9"}}"#
        var handedOut = 0
        #expect(throws: InputError(source: "t.har", line: 10, field: "log.version", #"expected "1.1" or "1.2", found a string "0.9""#)) {
            _ = try HARReader(bytes: Array(text.utf8), name: "t.har").forEachEntry { _ in handedOut += 1 }
        }
        #expect(handedOut == 1)
    }

    @Test func refusesAnEntryThatIsNotAnObject() {
        #expect(refusal(Self.capture([Self.entry, "  42"]))?.description == #"t.har:17: log.entries[1]: expected an entry object, found "42\x0A    ]\x0A  }\x0A}\x0A""#)
        #expect(refusal(Self.capture([Self.entry, Self.entry + ","]))?.description == #"t.har:27: log.entries[2]: expected an entry object, found "]\x0A  }\x0A}\x0A""#)
    }

    @Test func refusesAnEntryThatIsNotValidJSON() {
        let error = refusal(Self.capture(editing: #""cache": {}"#, to: #""cache": {tru}"#))
        #expect(error?.line == 17 && error?.field == "log.entries[1]")
        #expect(error?.message.hasPrefix("expected valid JSON, found an error: ") == true)
    }

    @Test(arguments: [
        (#""method": "GET""#, #""method": 1"#, "log.entries[1].request.method", "expected a string, found 1"),
        (#""url": "https://img.example/1.jpg", "#, "", "log.entries[1].request.url", "expected a string, found none"),
        (#""status": 200"#, #""status": "200""#, "log.entries[1].response.status", #"expected a number, found a string "200""#),
        (#""status": 200"#, #""status": 200.5"#, "log.entries[1].response.status", "expected a whole number, found 200.5"),
        (#""content": {"size": 4000, "mimeType": "image/jpeg"}"#, #""content": null"#, "log.entries[1].response.content", "expected an object, found null"),
        (#""wait": 100"#, #""wait": true"#, "log.entries[1].timings.wait", "expected a number, found true"),
        (#""send": 0.25, "#, "", "log.entries[1].timings.send", "expected a number of ms, found none"),
        (#""receive": 17.75"#, #""receive": null"#, "log.entries[1].timings.receive", "expected a number of ms, found none"),
        (#""startedDateTime": "2026-11-23T10:49:09.123Z","#, "", "log.entries[1].startedDateTime", "expected a string, found none"),
        (#""time": 120.5"#, #""time": [120.5]"#, "log.entries[1].time", "expected a number, found an array of 1"),
        (#""timings": {"blocked": 2.5, "dns": -1, "connect": -1, "ssl": -1, "send": 0.25, "wait": 100, "receive": 17.75}"#, #""timings": 5"#,
         "log.entries[1].timings", "expected an object, found 5"),
        (#"{"name": "accept", "value": "image/webp"}"#, #"{"name": "accept"}"#, "log.entries[1].request.headers[0].value", "expected a string, found none"),
    ])
    func refusesAMissingOrMistypedRequiredField(old: String, new: String, field: String, message: String) {
        let error = refusal(Self.capture(editing: old, to: new))
        #expect(error == InputError(source: "t.har", line: 17, field: field, message))
    }

    @Test func refusesANegativeRequiredTimingAndAnOptionalOneBelowMinusOne() {
        #expect(refusal(Self.capture(editing: #""wait": 100"#, to: #""wait": -3"#))?.description
            == "t.har:17: log.entries[1].timings.wait: expected a non-negative number of ms, found -3")
        #expect(refusal(Self.capture(editing: #""send": 0.25"#, to: #""send": -0.5"#))?.field == "log.entries[1].timings.send")
        #expect(refusal(Self.capture(editing: #""dns": -1"#, to: #""dns": -2"#))?.description
            == "t.har:17: log.entries[1].timings.dns: expected a number of ms, or -1 when it does not apply, found -2")
    }

    @Test func refusesACaptureCutOffMidWrite() {
        let text = Self.capture([Self.entry, Self.entry])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func cut(afterLine count: Int) -> String { lines.prefix(count).joined(separator: "\n") + "\n" }
        #expect(refusal(cut(afterLine: 20))?.description
            == "t.har:17: log.entries[1]: expected the rest of the capture, found its end at line 21 (a capture cut off mid-write?)")
        #expect(refusal(String(text.dropLast(4)))?.description
            == "t.har:28: expected the rest of the capture, found its end at line 28 (a capture cut off mid-write?)")
        #expect(refusal(#"{"log": {"version": "1."#)?.line == 1)
        #expect(refusal(#"{"log": {"ver"#)?.line == 1)
        #expect(refusal("{")?.line == 1)
    }

    @Test func refusesAnythingAfterTheClosingBrace() {
        #expect(refusal(Self.capture([Self.entry]) + "\n{}")?.description == #"t.har:21: expected nothing after the capture's closing }, found "{}""#)
        #expect(refusal(Self.capture([Self.entry]) + ",")?.line == 20)
    }

    @Test func refusesAnEntryPastTheSizeLimitAndNamesIt() {
        let large = Self.entry.replacingOccurrences(of: #""mimeType": "image/jpeg""#,
                                                    with: #""mimeType": "image/jpeg", "text": "\#(String(repeating: "A", count: 2_000))""#)
        #expect(refusal(Self.capture([Self.entry, large]), maxEntryBytes: 1_500)?.description
            == "t.har:17: log.entries[1]: expected an entry of at most 1500 bytes, found a longer one")
        #expect(refusal(Self.capture([Self.entry, large]), maxEntryBytes: 1 << 20) == nil)
    }

    @Test func refusesBracketsThatDoNotPairUpInMembersItSkips() {
        #expect(refusal(#"{"log": {"_custom": [1, {"a": 2]], "version": "1.2", "entries": []}}"#)?.description
            == #"t.har:1: log._custom: expected } to close the object opened before, found "]], \x22version\x22: \x221.2\x22…""#)
        #expect(refusal(#"{"log": {"comment": nope, "version": "1.2", "entries": []}}"#) == nil)
        #expect(refusal(#"{"log": {"comment": 1:2}}"#)?.description == #"t.har:1: log.comment: expected a JSON value, found ":2}}""#)
    }

    @Test func refusesAFileItCannotOpen() {
        #expect(throws: InputError(source: "/nonexistent/c.har", "cannot open: No such file or directory")) {
            try HARReader(path: "/nonexistent/c.har").forEachEntry { _ in }
        }
    }
}
