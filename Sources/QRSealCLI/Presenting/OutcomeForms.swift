import FoundationEssentials
import Glibc
import QRSealKit

/// How an outcome reads in each form: the human line, and the fields of its `--json` object,
/// for images and live frames alike. What comes from outside is escaped in human lines.
enum OutcomeForms {
    /// The line a person reads for one symbol: `SOURCE: KIND: TEXT` for a plain code,
    /// `SOURCE: KIND [sealed]: …` for a sealed one. The marker comes before anything from
    /// the code, and what comes from outside is escaped, so no payload can make its line, or
    /// a line after it, pass for an opened sealed message.
    static func humanLine(source: String, _ d: Detection, _ content: Reader.Content, fileNote: String?) -> String {
        let head = DisplayText.escape(source) + ": " + d.symbology.displayName
        switch content {
        case .plain: return head + ": " + (d.text.map { DisplayText.escape($0) } ?? "<\(d.bytes.count) bytes of binary data>")
        case .opened(.text(let text)): return head + " [sealed]: " + DisplayText.escape(text)
        case .opened(.file): return head + " [sealed]: " + (fileNote ?? "")
        case let .locked(kind, size): return head + " [sealed]: <not opened: \(size) bytes, for a \(kind)>"
        case .failed(let error): return head + " [sealed]: <not opened: \(error.description)>"
        }
    }

    /// The fields of one symbol as `scan --json` gives them.
    static func symbolFields(_ d: Detection, source: String, exactCorners: Bool = true) -> [(String, JSON.Value)] {
        var fields: [(String, JSON.Value)] = [
            ("source", .string(source)),
            ("format", .string(d.symbology.displayName)),
            ("symbology", .string(d.symbology.rawValue)),
        ]
        if let text = d.text { fields.append(("text", .string(text))) }
        fields.append(("bytes_base64", .string(Data(d.bytes).base64EncodedString())))
        fields.append(("corners", .array(d.corners.map {
            .array([.number(exactCorners ? $0.x : tenth($0.x)), .number(exactCorners ? $0.y : tenth($0.y))])
        })))
        return fields
    }

    /// What an image scan adds for a symbol: version, model and error-correction level.
    static func symbolDetails(_ d: Detection) -> [(String, JSON.Value)] {
        var fields: [(String, JSON.Value)] = []
        if let v = d.version { fields.append(("version", .int(v))) }
        if let model = d.model { fields.append(("model", .int(model))) }
        if let ec = d.errorCorrection { fields.append(("ec_level", .string(ec.rawValue))) }
        return fields
    }

    /// The fields `--json` adds for a sealed message, for images and live frames alike.
    static func sealedFields(_ content: Reader.Content, fileNote: String?) -> [(String, JSON.Value)] {
        switch content {
        case .plain: return []
        case .opened(.text(let text)): return [("sealed", .string("opened")), ("plaintext", .string(text))]
        case .opened(.file(let name, let bytes)):
            return [("sealed", .string("opened")), ("file_name", .string(PayloadWriter.fileName(name))),
                    ("file_size", .int(bytes.count))]
        case let .locked(kind, size):
            return [("sealed", .string("locked")), ("key_kind", .string(kind.rawValue)), ("sealed_size", .int(size))]
        case .failed(let error):
            return [("sealed", .string("failed")), ("error", .string(error.description))]
        }
    }

    /// The lines a person reads for one text block: `SOURCE: text: LINE` for each line, or
    /// for a printed sealed message `SOURCE: text [sealed]: …` as for a code.
    static func textLines(source: String, _ block: TextBlock, _ content: Reader.Content) -> [String] {
        let head = DisplayText.escape(source) + ": text"
        switch content {
        case .plain:
            return block.lines.map { line in
                var kinds: [String] = []
                for kind in line.contents.map(\.kind.rawValue) where !kinds.contains(kind) { kinds.append(kind) }
                return head + (kinds.isEmpty ? "" : " [" + kinds.joined(separator: ",") + "]") + ": " + DisplayText.escape(line.text)
            }
        case .opened(.text(let text)): return [head + " [sealed]: " + DisplayText.escape(text)]
        case .opened(.file(let name, let bytes)):
            return [head + " [sealed]: <a file, \(DisplayText.escape(PayloadWriter.fileName(name))), \(bytes.count) bytes>"]
        case let .locked(kind, size): return [head + " [sealed]: <not opened: \(size) bytes, for a \(kind)>"]
        case .failed(let error): return [head + " [sealed]: <not opened: \(error.description)>"]
        }
    }

    /// What `--raw` prints of a block: its lines, or a printed sealed message's opened text.
    static func rawTextLines(_ block: TextBlock, _ content: Reader.Content) -> [String] {
        switch content {
        case .plain: return block.lines.map(\.text)
        case .opened(.text(let text)): return [text]
        default: return []
        }
    }

    /// One `--json` object for a block: its text, confidence, corners, kinds, and its lines
    /// and words with their boxes and confidences.
    static func textFields(source: String, _ block: TextBlock, _ content: Reader.Content,
                           inboxID: Int64?) -> [(String, JSON.Value)] {
        func box(_ b: Region) -> JSON.Value { .array([.int(b.x), .int(b.y), .int(b.width), .int(b.height)]) }
        func confidence(_ c: Double) -> JSON.Value { .number((c * 10).rounded() / 10) }
        var fields: [(String, JSON.Value)] = [
            ("source", .string(source)),
            ("format", .string("text")),
            ("text", .string(block.text)),
            ("confidence", confidence(block.confidence)),
            ("corners", .array(block.corners.map { .array([.number($0.x), .number($0.y)]) })),
            ("kind", .string(block.kind.rawValue)),
            ("kinds", .array(block.contents.map { summary in
                .object([("kind", .string(summary.kind.rawValue))] + summary.fields.map { ($0.name, .string($0.value)) })
            })),
            ("lines", .array(block.lines.map { line in
                .object([("text", .string(line.text)), ("confidence", confidence(line.confidence)), ("box", box(line.box)),
                         ("words", .array(line.words.map { word in
                             .object([("text", .string(word.text)), ("confidence", confidence(word.confidence)),
                                      ("box", box(word.box))])
                         }))])
            })),
        ]
        if let inboxID { fields.append(("inbox_id", .int(Int(inboxID)))) }
        // A file a printed message carries is not written out; its name and size are given.
        return fields + sealedFields(content, fileNote: nil)
    }

    /// Corner coordinates to a tenth of a pixel: enough, and stable in text.
    private static func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
