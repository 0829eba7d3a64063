/// What a front end encodes: the bytes as given, and the name of the file they came from.
public struct EncodeInput: Sendable {
    public let bytes: [UInt8]
    /// The input file's last path component; nil for text typed or piped in.
    public let name: String?

    public init(bytes: [UInt8], name: String? = nil) {
        self.bytes = bytes
        self.name = name
    }

    /// Text, as the composer's text field gives it.
    public init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Whether the bytes are UTF-8 text.
    public var isText: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// A named file travels with its name; text stays text; other bytes are a nameless file.
    public var payload: Payload {
        name.map { .file(name: $0, bytes: bytes) }
            ?? (isText ? .text(String(decoding: bytes, as: UTF8.self)) : .file(name: "", bytes: bytes))
    }

    /// UTF-8 input is text (densest segments); anything else is binary (one byte segment).
    public var plainContent: QREncoder.Content {
        isText ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(bytes)
    }
}

extension Encoder {
    /// Why a message could not be made into symbols.
    public enum MessageFailure: Error, Sendable {
        case seal(SealError)
        case symbol(SymbolError)
        /// libcrypto, which parts need for their hashes, could not be loaded.
        case library(LibraryError)
        case split(PartsError)
    }

    /// The message as symbols, as `qrseal encode` and the desktop composer make it: one
    /// symbol when it fits (and `split.parts` asks for no parts), else its parts. A sealed
    /// message is sealed once, as a whole, then split.
    public func message(_ input: EncodeInput, key: SealKey?, split: SplitOptions) throws(MessageFailure) -> EncodedMessage {
        let whole: [UInt8]
        if let key {
            do { whole = try sealedWhole(input.payload, with: key) } catch { throw .seal(error) }
            if split.parts == nil, whole.count <= armor.maxEnvelopeBytes(version: 40, level: symbol.level) {
                do {
                    return EncodedMessage(single: try symbol.encode(armor.content(for: whole)), content: input.bytes)
                } catch {
                    throw .symbol(error)
                }
            }
        } else {
            if split.parts == nil {
                do { return EncodedMessage(single: try encode(input.plainContent), content: input.bytes) } catch {
                    guard case .tooLarge = error else { throw .symbol(error) }
                }
            }
            // Too large for one symbol: parts carry hashes of their content.
            do { try SharedLibrary.crypto.load() } catch { throw .library(error) }
            do { whole = try plainWhole(input.payload) } catch { throw .seal(error) }
        }
        do {
            return try encodeParts(whole, plan: try plan(length: whole.count, split), content: input.bytes)
        } catch {
            throw .split(error)
        }
    }
}

/// The image formats a front end writes one symbol in.
extension QRMatrix {
    /// The symbol as a PNG file: `scale` pixels a module, `margin` modules of quiet zone.
    public func png(scale: Int, margin: Int, invert: Bool = false, dpi: Int? = nil) throws(RasterError) -> [UInt8] {
        try PNGEncoder.encode(image(scale: scale, margin: margin, invert: invert), dpi: dpi)
    }
}

extension SealKey {
    /// What a printed sheet says opening the message needs.
    public var sheetNote: String {
        switch self {
        case .passphrase: return "sealed: opening it needs the passphrase"
        case .keyFile, .identity: return "sealed: opening it needs the key"
        case .recipients: return "sealed: opening it needs a recipient's identity"
        }
    }
}

extension EncodedMessage {
    /// The files of a message's parts, one code each: `NAME.png` → `NAME-01-of-12.png`, …
    /// (no extension: `NAME-01-of-12`).
    public static func partPaths(_ path: String, count: Int) -> [String] {
        let directory = SystemFiles.directory(of: path)
        let name = SystemFiles.lastComponent(of: path)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        return (1...count).map { i in
            let file = "\(stem)-\(partNumber(i, count))-of-\(partNumber(count, count))\(ext)"
            return path.contains("/") ? SystemFiles.join(directory, file) : file
        }
    }

    /// `i` with at least two digits, as many as `count` has.
    public static func partNumber(_ i: Int, _ count: Int) -> String {
        let text = String(i)
        return String(repeating: "0", count: max(2, String(count).count) - text.count) + text
    }
}
