import Foundation

/// A tiny reader of the markup FeedBench writes (SVG inside HTML): elements with their
/// attributes, children and text. Not a general XML parser: no comments, CDATA or entities
/// beyond the five SVGText writes; a `<!…>` declaration is skipped. Mismatched tags fail, so a
/// malformed chart fails the tests that read it.
final class MarkupElement {
    let name: String
    let attributes: [String: String]
    var children: [MarkupElement] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `markup` (a fragment or a page) into a root element named "#document".
    static func parse(_ markup: String) throws -> MarkupElement {
        let root = MarkupElement(name: "#document", attributes: [:])
        var stack = [root]
        var rest = Substring(markup)
        // HTML elements that never close.
        let void: Set<String> = ["meta", "br", "hr", "img", "input", "link"]
        while let open = rest.firstIndex(of: "<") {
            stack.last!.text += unescape(rest[..<open])
            guard let close = rest[open...].firstIndex(of: ">") else { throw Malformed(description: "unclosed tag") }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                guard stack.count > 1, stack.last!.name == name else { throw Malformed(description: "</\(name)> closes <\(stack.last!.name)>") }
                stack.removeLast()
                continue
            }
            let selfClosing = tag.hasSuffix("/")
            let body = selfClosing ? tag.dropLast() : tag
            let name = String(body.prefix { !$0.isWhitespace })
            let element = MarkupElement(name: name, attributes: try attributesOf(body.dropFirst(name.count)))
            stack.last!.children.append(element)
            if name == "script" || name == "style" {
                guard let end = rest.range(of: "</\(name)>") else { throw Malformed(description: "unclosed <\(name)>") }
                element.text = String(rest[..<end.lowerBound])
                rest = rest[end.upperBound...]
            } else if !selfClosing && !void.contains(name) {
                stack.append(element)
            }
        }
        guard stack.count == 1 else { throw Malformed(description: "<\(stack.last!.name)> never closed") }
        return root
    }

    static func attributesOf(_ text: Substring) throws -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard !rest.isEmpty else { return attributes }
            guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "\"" else {
                throw Malformed(description: "attribute without a quoted value: \(rest)")
            }
            let name = String(rest[..<equals])
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let valueEnd = rest[valueStart...].firstIndex(of: "\"") else { throw Malformed(description: "unclosed attribute \(name)") }
            attributes[name] = unescape(rest[valueStart..<valueEnd])
            rest = rest[rest.index(after: valueEnd)...]
        }
    }

    static func unescape(_ text: Substring) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Every element below this one (depth first, document order) named `name` whose `class`
    /// attribute, split at spaces, contains `className` (when given).
    func all(_ name: String, class className: String? = nil) -> [MarkupElement] {
        children.flatMap { child -> [MarkupElement] in
            let matches = child.name == name
                && (className.map { (child.attributes["class"] ?? "").split(separator: " ").contains(Substring($0)) } ?? true)
            return (matches ? [child] : []) + child.all(name, class: className)
        }
    }

    /// The text of this element and everything below it.
    var allText: String { text + children.map(\.allText).joined() }
}
