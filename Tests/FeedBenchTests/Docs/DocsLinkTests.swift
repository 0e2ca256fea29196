import Foundation
import Testing

/// The README is the front door and `docs/` holds one page per command or topic (issue 29):
/// every relative link between them must reach a file, and a heading when it names one, the
/// README must stay short, and every page must be reachable from it.
@Suite struct DocsLinkTests {
    /// README.md's limit: about 15 KB.
    static let readmeLimit = 15_360

    @Test func everyRelativeLinkReachesAFileAndItsHeading() throws {
        var checked = 0
        for file in try Docs.markdownFiles() {
            for link in try Docs.links(in: file) {
                checked += 1
                let place = "\(Docs.relative(file)):\(link.line): [\(link.text)](\(link.target))"
                let target = link.file.isEmpty ? file : Docs.resolve(link.file, from: file)
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(place): no file \(Docs.relative(target))")
                    continue
                }
                guard let anchor = link.anchor else { continue }
                let slugs = try Docs.headingSlugs(in: target)
                #expect(slugs.contains(anchor),
                        "\(place): no heading of \(Docs.relative(target)) has the slug \"\(anchor)\"")
            }
        }
        // The README alone links every docs page: a parser that finds nothing must not pass.
        #expect(checked >= 20, "only \(checked) relative links found")
    }

    @Test func theReadmeIsAFrontDoor() throws {
        let readme = SharedFiles.packageRoot.appendingPathComponent("README.md")
        let bytes = try Data(contentsOf: readme).count
        #expect(bytes <= Self.readmeLimit, "README.md is \(bytes) bytes; at most \(Self.readmeLimit)")
    }

    @Test func theReadmeLinksEveryDocsPage() throws {
        let readme = SharedFiles.packageRoot.appendingPathComponent("README.md")
        let linked = Set(try Docs.links(in: readme).filter { !$0.file.isEmpty }
            .map { Docs.resolve($0.file, from: readme).path })
        let pages = try Docs.markdownFiles().filter { $0.lastPathComponent != "README.md" }
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(linked.contains(page.path), "README.md does not link \(Docs.relative(page))")
        }
    }

    @Test func slugsFollowGitHub() {
        #expect(Docs.slug("The feed as a real server: `bench serve`") == "the-feed-as-a-real-server-bench-serve")
        #expect(Docs.slug("The app over real HTTP: `bench run --live`") == "the-app-over-real-http-bench-run---live")
        #expect(Docs.slug("Launches, strategies, presets, windows") == "launches-strategies-presets-windows")
        #expect(Docs.slug("Which policy for an image feed? (FeedBench's own runs)")
                == "which-policy-for-an-image-feed-feedbenchs-own-runs")
        #expect(Docs.slug("Größe × Fenster_2") == "größe--fenster_2")
    }

    @Test func linksAreFoundOutsideCodeOnly() {
        let text = """
        See [the network](network.md#held-to-ns-3) and [`bench serve`](serve.md), not `[a](b.md)`.
        ```
        [in a fence](fence.md)
        ```
        [web](https://example.com) [mail](mailto:a@b.c) [here](#top)
        """
        let links = Docs.links(inText: text)
        #expect(links.map(\.target) == ["network.md#held-to-ns-3", "serve.md", "#top"])
        #expect(links.map(\.line) == [1, 1, 5])
        #expect(links[0].file == "network.md" && links[0].anchor == "held-to-ns-3")
        #expect(links[2].file == "" && links[2].anchor == "top")
    }
}

/// Reading the README and docs/ as Markdown, as far as links and headings go.
enum Docs {
    struct Link: Equatable {
        var text: String
        var target: String
        var line: Int
        /// The target's file part, empty for a link within the same file.
        var file: String {
            String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }
        var anchor: String? {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? String(parts[1]) : nil
        }
    }

    /// README.md and every docs/*.md.
    static func markdownFiles() throws -> [URL] {
        let root = SharedFiles.packageRoot
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
        return [root.appendingPathComponent("README.md")] + pages
    }

    static func relative(_ url: URL) -> String {
        let root = SharedFiles.packageRoot.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    static func resolve(_ file: String, from source: URL) -> URL {
        let decoded = file.removingPercentEncoding ?? file
        return source.deletingLastPathComponent().appendingPathComponent(decoded).standardizedFileURL
    }

    static func links(in file: URL) throws -> [Link] {
        links(inText: try String(contentsOf: file, encoding: .utf8))
    }

    /// The relative links `[text](target)` outside fenced code blocks and code spans.
    static func links(inText text: String) -> [Link] {
        var found: [Link] = []
        for (index, line) in proseLines(text) {
            let prose = Array(withoutCodeSpans(line))
            var start = 0
            // Each `](` closes a link's text, opened by the nearest `[` before it.
            var at = 0
            while at + 1 < prose.count {
                guard prose[at] == "]", prose[at + 1] == "(" else { at += 1; continue }
                guard let open = prose[start..<at].lastIndex(of: "["),
                      let end = prose[(at + 2)...].firstIndex(of: ")") else { at += 1; continue }
                let label = String(prose[(open + 1)..<at])
                let target = String(prose[(at + 2)..<end]).trimmingCharacters(in: .whitespaces)
                let external = ["http://", "https://", "mailto:"].contains { target.lowercased().hasPrefix($0) }
                if !external && !target.isEmpty {
                    found.append(Link(text: label, target: target, line: index))
                }
                start = end + 1
                at = end + 1
            }
        }
        return found
    }

    /// The GitHub anchors of a file's headings (a repeated one gets `-1`, `-2`, …).
    static func headingSlugs(in file: URL) throws -> Set<String> {
        var slugs = Set<String>()
        var seen: [String: Int] = [:]
        for (_, line) in proseLines(try String(contentsOf: file, encoding: .utf8)) {
            let hashes = line.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { continue }
            let base = slug(String(line.dropFirst(hashes + 1)))
            let count = seen[base, default: 0]
            slugs.insert(count == 0 ? base : "\(base)-\(count)")
            seen[base] = count + 1
        }
        return slugs
    }

    /// GitHub's heading anchor: lower case; letters, marks, digits, `_`, `-` and spaces kept,
    /// everything else dropped; each space a hyphen.
    static func slug(_ heading: String) -> String {
        var out = ""
        for scalar in heading.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark,
                 .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                out.unicodeScalars.append(scalar)
            default:
                if scalar == "-" { out += "-" } else if scalar == " " { out += "-" }
            }
        }
        return out
    }

    /// Lines outside fenced code blocks, numbered from 1.
    static func proseLines(_ text: String) -> [(Int, String)] {
        var inFence = false
        var lines: [(Int, String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence { lines.append((index + 1, String(line))) }
        }
        return lines
    }

    /// The line with each code span's content removed (its backticks kept), so that
    /// `[a](b)` written as code is not a link while [`code`](target) still is.
    static func withoutCodeSpans(_ line: String) -> String {
        var out = ""
        var inCode = false
        for character in line {
            if character == "`" {
                inCode.toggle()
                out.append(character)
            } else if !inCode {
                out.append(character)
            }
        }
        return out
    }
}
