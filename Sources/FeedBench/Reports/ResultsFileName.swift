/// Where `bench run` writes its results when no `--out` is given. Only a profile's standard
/// matrix as it stands — no axis narrowed or replaced, no session setting changed — may write
/// the committed baseline `results/<profile>.csv`; any other run writes a name built from the
/// options that changed it, `results/low-end+network-3g.csv`, which no baseline can have (a
/// profile's name has no `+`). The same options always give the same name.
public enum ResultsFileName {
    /// Names longer than this keep their first characters and end with a hash of the whole.
    static let longestStem = 80

    /// The path for `profile`'s results under `changes`, the options given (without their
    /// dashes) and their values as written, in a fixed order: `option-value` each, or `option`
    /// for a flag, joined by `+`. Letters, digits and `.,_-` are kept; any other character
    /// becomes `_`. A name past 80 characters keeps the options that fit in 63 and ends with
    /// `+` and 16 hex digits of FNV-1a over every option and value, so that different runs
    /// do not share it.
    public static func path(profile: String, changes: [(option: String, value: String)]) -> String {
        guard !changes.isEmpty else { return "results/\(profile).csv" }
        let parts = changes.map { change in
            change.value.isEmpty ? change.option : change.option + "-" + safe(change.value)
        }
        var stem = ([profile] + parts).joined(separator: "+")
        if stem.count > longestStem {
            var hash = FNV1a()
            hash.add(profile)
            for change in changes {
                hash.add(change.option)
                hash.add(change.value)
            }
            stem = profile
            for part in parts {
                guard stem.count + 1 + part.count <= longestStem - 17 else { break }
                stem += "+" + part
            }
            stem += "+" + hash.hex
        }
        return "results/\(stem).csv"
    }

    /// `value` with every character but letters, digits and `.,_-` replaced by `_`.
    static func safe(_ value: String) -> String {
        String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || ".,_-".contains($0)) ? $0 : "_" })
    }
}
