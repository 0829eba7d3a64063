import QRSealKit

/// The files the composer saves, as `qrseal encode` writes them: one code as PNG or SVG
/// (a message in parts as one file a part, `NAME-01-of-12.png`), the whole message as a
/// printable PDF sheet or an animated GIF.
enum SaveFormat: String, CaseIterable {
    case png, svg, pdf, gif

    /// `qrseal encode`'s default scale (pixels a module) for images.
    static let scale = 8

    var title: String {
        switch self {
        case .png: return "PNG image"
        case .svg: return "SVG image"
        case .pdf: return "PDF sheet"
        case .gif: return "GIF animation"
        }
    }

    var pattern: (name: String, pattern: String) { (title, "*.\(rawValue)") }

    /// The name offered in the save dialog: the input file's stem, or "message".
    func suggestedName(for input: EncodeInput) -> String {
        var stem = input.name ?? "message"
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        return "\(stem).\(rawValue)"
    }

    /// The files to write for `message` when the user named `path`, each with its bytes.
    /// Runs on a worker thread: a sheet or a GIF of many parts takes a while.
    func files(_ message: EncodedMessage, path: String, input: EncodeInput, key: SealKey?, fps: Double)
        throws(SaveFailure) -> [(path: String, bytes: [UInt8])] {
        switch self {
        case .pdf:
            do {
                let sheet = try Sheet(message, name: input.name, note: key?.sheetNote, quietZone: CodePixels.margin)
                return [(path, try sheet.pdf())]
            } catch { throw SaveFailure(path: path, reason: error.description) }
        case .gif:
            do {
                return [(path, try AnimatedGIF.encode(message, scale: Self.scale, margin: CodePixels.margin, fps: fps))]
            } catch { throw SaveFailure(path: path, reason: error.description) }
        case .png, .svg:
            let paths = message.symbols.count == 1 ? [path] : EncodedMessage.partPaths(path, count: message.symbols.count)
            var files: [(path: String, bytes: [UInt8])] = []
            for (part, symbol) in zip(paths, message.symbols) {
                files.append((part, try image(symbol.matrix, path: part)))
            }
            return files
        }
    }

    private func image(_ matrix: QRMatrix, path: String) throws(SaveFailure) -> [UInt8] {
        if self == .svg { return Array(matrix.svg(scale: Self.scale, margin: CodePixels.margin).utf8) }
        do { return try matrix.png(scale: Self.scale, margin: CodePixels.margin) } catch {
            throw SaveFailure(path: path, reason: error.description)
        }
    }

    /// Writes `files`: the one the user named replaces what is there (the dialog asked);
    /// the parts' other names must be free, and a failure removes the parts already written.
    static func write(_ files: [(path: String, bytes: [UInt8])], named: String) throws(SaveFailure) {
        for file in files where file.path != named && SystemFiles.status(file.path, followLinks: false) != nil {
            throw SaveFailure(path: file.path, reason: "file exists; choose another name for the parts")
        }
        var written: [String] = []
        for file in files {
            do { try SystemFiles.replace(file.path, with: file.bytes) } catch {
                for path in written { SystemFiles.remove(path) }
                throw SaveFailure(path: file.path, reason: error.description)
            }
            written.append(file.path)
        }
    }
}

/// Why a file could not be saved, naming it.
struct SaveFailure: Error {
    let path: String
    let reason: String

    var description: String { "\(SystemFiles.lastComponent(of: path)): \(reason)" }
}
