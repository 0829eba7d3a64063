/// GS1 element strings, the form in which qrseal reports GS1 DataBar and DataBar Expanded.
///
/// An element string is each application identifier (AI) followed by its data, with no
/// parentheses; a field whose AI does not have a predefined length ends with the group
/// separator GS (0x1D) when another field follows, as a scanner transmits it (FNC1) and as
/// zbar reports it: `(01)98898765432106(3202)012345(15)991231` is
/// `0198898765432106320201234515991231`, and `(10)ABC(21)12` is `10ABC<GS>2112`.
enum GS1 {
    /// The group separator that ends a variable-length field.
    static let groupSeparator: UInt8 = 0x1D

    /// The first two digits of every AI whose data has a predefined length (GS1 General
    /// Specifications, "element strings with predefined length"); no separator follows them.
    static let predefinedLengthPrefixes: Set<String> = [
        "00", "01", "02", "03", "04", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
        "31", "32", "33", "34", "35", "36", "41",
    ]

    /// The element string of the human-readable form `(AI)data(AI)data…` that zxing-cpp
    /// gives, or nil when `bytes` is not of that form.
    static func elementString(bracketed bytes: [UInt8]) -> [UInt8]? {
        var fields: [(ai: [UInt8], data: [UInt8])] = []
        var rest = bytes[...]
        while let open = rest.first {
            guard open == UInt8(ascii: "("), let close = rest.firstIndex(of: UInt8(ascii: ")")) else { return nil }
            let ai = Array(rest[rest.startIndex + 1..<close])
            guard (2...4).contains(ai.count), ai.allSatisfy({ (48...57).contains($0) }) else { return nil }
            rest = rest[(close + 1)...]
            let end = rest.firstIndex(of: UInt8(ascii: "(")) ?? rest.endIndex
            guard end > rest.startIndex else { return nil }
            fields.append((ai, Array(rest[..<end])))
            rest = rest[end...]
        }
        guard !fields.isEmpty else { return nil }
        var out: [UInt8] = []
        for (i, field) in fields.enumerated() {
            out += field.ai + field.data
            let predefined = predefinedLengthPrefixes.contains(String(decoding: field.ai.prefix(2), as: UTF8.self))
            if !predefined && i < fields.count - 1 { out.append(groupSeparator) }
        }
        return out
    }
}
