#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a report printed for people may use colour (ANSI SGR escapes): only when it goes
/// to a terminal and `NO_COLOR` is unset or empty (https://no-color.org). Colour never reaches
/// a file or a pipe. Colour is applied to cells after they are padded, so columns stay aligned.
public struct TerminalStyle: Sendable, Equatable {
    /// Colours a report may use.
    public enum Colour: String, Sendable {
        case green = "32", red = "31", yellow = "33", bold = "1", dim = "2"
    }

    public let usesColour: Bool

    /// No colour at all: what files, pipes and tests get.
    public static let plain = TerminalStyle(usesColour: false)

    public init(usesColour: Bool) {
        self.usesColour = usesColour
    }

    /// The rule, with the terminal and environment given (so it can be tested): colour when
    /// `isTerminal` and `NO_COLOR` is absent or empty.
    public init(isTerminal: Bool, environment: [String: String]) {
        usesColour = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The style for file descriptor `fd` of this process (1 for standard output).
    public static func forDescriptor(_ fd: Int32, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(isTerminal: isatty(fd) == 1, environment: environment)
    }

    /// `text` in `colour`, or unchanged without colour.
    public func paint(_ text: String, _ colour: Colour) -> String {
        guard usesColour, !text.isEmpty else { return text }
        return "\u{1B}[\(colour.rawValue)m" + text + "\u{1B}[0m"
    }
}
