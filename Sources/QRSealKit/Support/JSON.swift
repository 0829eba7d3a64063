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
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
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
