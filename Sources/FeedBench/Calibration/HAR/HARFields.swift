import Foundation

/// One JSON object of a capture as Foundation's `JSONSerialization` decoded it, with its path
/// (`log.entries[3].timings`) and line, so that each typed read refuses in one line naming the
/// field: `file:line: log.entries[3].timings.wait: expected a number, found a string "12"`.
struct HARFields {
    let object: [String: Any]
    let path: String
    let source: String
    let line: Int

    /// `value` as an object, or a refusal naming `path`.
    init(_ value: Any?, path: String, source: String, line: Int) throws {
        guard let object = value as? [String: Any] else {
            throw InputError(source: source, line: line, field: path, "expected an object, found \(HARFields.describe(value))")
        }
        self.object = object
        self.path = path
        self.source = source
        self.line = line
    }

    /// Decodes the JSON text in `bytes` (one value; `fragments` allows a string or number),
    /// refusing invalid JSON as a fault of `field` at `line`. O(bytes).
    static func decode(_ bytes: UnsafeRawBufferPointer, fragments: Bool, source: String, line: Int, field: String) throws -> Any {
        do {
            return try decode(bytes, fragments: fragments)
        } catch let error as NSError {
            let detail = (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
            throw InputError(source: source, line: line, field: field, "expected valid JSON, found an error: \(detail) (counted from the \(fragments ? "value" : "object")'s first byte)")
        }
    }

    /// Decodes the JSON text in `bytes` without copying them. O(bytes).
    static func decode(_ bytes: UnsafeRawBufferPointer, fragments: Bool) throws -> Any {
        guard let base = bytes.baseAddress else {
            return try JSONSerialization.jsonObject(with: Data(), options: fragments ? [.fragmentsAllowed] : [])
        }
        let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
        return try JSONSerialization.jsonObject(with: data, options: fragments ? [.fragmentsAllowed] : [])
    }

    func refusal(_ key: String, _ message: String) -> InputError {
        InputError(source: source, line: line, field: path + "." + key, message)
    }

    /// The member `key`, which must be an object.
    func object(_ key: String) throws -> HARFields {
        try HARFields(object[key], path: path + "." + key, source: source, line: line)
    }

    /// The member `key`, `nil` when absent or null. (Its type is compared rather than cast:
    /// `is NSNull` would bridge an array or string to Foundation's classes just to say no.)
    func optional(_ key: String) -> Any? {
        guard let value = object[key], type(of: value) != NSNull.self else { return nil }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let text = object[key] as? String else { throw refusal(key, "expected a string, found \(HARFields.describe(object[key]))") }
        return text
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = optional(key) else { return nil }
        guard let text = value as? String else { throw refusal(key, "expected a string, found \(HARFields.describe(value))") }
        return text
    }

    func number(_ key: String) throws -> Double {
        guard let value = HARFields.number(object[key]) else { throw refusal(key, "expected a number, found \(HARFields.describe(object[key]))") }
        return value
    }

    func optionalNumber(_ key: String) throws -> Double? {
        guard let value = optional(key) else { return nil }
        guard let number = HARFields.number(value) else { throw refusal(key, "expected a number, found \(HARFields.describe(value))") }
        return number
    }

    func integer(_ key: String) throws -> Int {
        guard let whole = HARFields.integer(try number(key)) else { throw refusal(key, "expected a whole number, found \(HARFields.describe(object[key]))") }
        return whole
    }

    func optionalInteger(_ key: String) throws -> Int? {
        guard let number = try optionalNumber(key) else { return nil }
        guard let whole = HARFields.integer(number) else { throw refusal(key, "expected a whole number, found \(HARFields.describe(object[key]))") }
        return whole
    }

    /// `key`'s `[{"name": …, "value": …}]`; an absent list is empty.
    func headers(_ key: String) throws -> [HARHeader] {
        guard let value = optional(key) else { return [] }
        guard let list = value as? [Any] else { throw refusal(key, "expected an array of headers, found \(HARFields.describe(value))") }
        var headers: [HARHeader] = []
        headers.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            // Headers are most of an entry's fields: no path is spelt out unless one is refused.
            if let header = item as? [String: Any], let name = header["name"] as? String, let value = header["value"] as? String {
                headers.append(HARHeader(name: name, value: value))
            } else {
                let header = try HARFields(item, path: "\(path).\(key)[\(index)]", source: source, line: line)
                headers.append(HARHeader(name: try header.string("name"), value: try header.string("value")))
            }
        }
        return headers
    }

    /// JSON's `true` and `false` come back as NSNumbers of this class.
    static let booleanType = type(of: NSNumber(value: true))

    /// A JSON number's value; `nil` for anything else, `true` and `false` included.
    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, type(of: number) != booleanType else { return nil }
        return number.doubleValue
    }

    /// `value` as an `Int` when it is whole and in range.
    static func integer(_ value: Double) -> Int? {
        guard value.rounded() == value, abs(value) < 0x1p62 else { return nil }
        return Int(value)
    }

    /// A decoded value in words, for messages: `none`, `null`, `true`, `-3`, `a string "12"`,
    /// `an array`, `an object`.
    static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "none"
        case is NSNull: return "null"
        case let text as String: return "a string \(InputError.quote(text))"
        case let list as [Any]: return "an array of \(list.count)"
        case is [String: Any]: return "an object"
        case let number as NSNumber where type(of: number) == booleanType: return number.boolValue ? "true" : "false"
        case let number as NSNumber:
            let value = number.doubleValue
            return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        default: return "\(value!)"
        }
    }
}
