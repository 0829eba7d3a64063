import FoundationEssentials

/// A minimal JSON writer with keys in the order given, for line-oriented output.
public enum JSON {
    public indirect enum Value: Sendable {
        case string(String), int(Int), number(Double), bool(Bool), array([Value]), object([(String, Value)]), null
    }

    public static func line(_ fields: [(String, Value)]) -> String { render(.object(fields)) }

    public static func render(_ value: Value) -> String {
        switch value {
        case .string(let s): return quote(s)
        case .int(let n): return String(n)
        case .number(let d): return NumberText.brief(d)
        case .array(let items): return "[" + items.map(render).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.map { quote($0.0) + ":" + render($0.1) }.joined(separator: ",") + "}"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Controls, DEL, C1 and the invisible characters DisplayText escapes are written
            // as \uXXXX: the value is the same to a JSON reader, and a terminal showing the
            // line is not driven by it. One beyond the BMP (a tag character) is a surrogate pair.
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || DisplayText.isInvisible(scalar):
                for unit in String(scalar).utf16 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

// MARK: Reading

extension JSON {
    /// The object one line of JSON holds, by key (the last of a repeated key); nil when the
    /// line is not JSON or not an object.
    public static func object(parsing line: String) -> [String: Value]? {
        guard case .object(let fields)? = try? JSONDecoder().decode(Value.self, from: Data(line.utf8)) else { return nil }
        return Dictionary(fields, uniquingKeysWith: { $1 })
    }
}

extension JSON.Value: Decodable {
    public init(from decoder: any Decoder) throws {
        // Strings first, then numbers: a failed guess costs a thrown error, and an export's
        // values are nearly all strings.
        let value = try decoder.singleValueContainer()
        if value.decodeNil() { self = .null }
        else if let string = try? value.decode(String.self) { self = .string(string) }
        else if let int = try? value.decode(Int.self) { self = .int(int) }
        else if let number = try? value.decode(Double.self) { self = .number(number) }
        else if let bool = try? value.decode(Bool.self) { self = .bool(bool) }
        else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSON.Value.self, forKey: $0)) })
        } else {
            var array = try decoder.unkeyedContainer()
            var items: [JSON.Value] = []
            while !array.isAtEnd { items.append(try array.decode(JSON.Value.self)) }
            self = .array(items)
        }
    }

    /// The string this is, if it is one.
    public var string: String? {
        if case .string(let s) = self { s } else { nil }
    }

    /// The number this is, if it is one: a whole number as the Double nearest it, as a
    /// Double read from the same digits would be.
    public var number: Double? {
        switch self {
        case .int(let n): Double(n)
        case .number(let d): d
        default: nil
        }
    }

    /// The truth value this is, if it is one.
    public var bool: Bool? {
        if case .bool(let b) = self { b } else { nil }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
