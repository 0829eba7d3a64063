/// One symbol of a QR Structured Append sequence (ISO/IEC 18004, section 8), or of a Data
/// Matrix one (ISO/IEC 16022, 5.6): up to 16 symbols whose data, joined in order, is one message.
public struct StructuredAppend: Equatable, Sendable {
    /// 0-based position in the sequence.
    public let index: Int
    /// Symbols in the sequence, 1 to 16.
    public let count: Int
    /// What names the sequence, the same in every symbol: QR's parity byte (the XOR of the
    /// message's bytes, 0…255), or Data Matrix's file identification (its two codewords,
    /// 1…254 each, as one number: 257…65278).
    public let parity: Int

    public init(index: Int, count: Int, parity: Int) {
        self.index = index
        self.count = count
        self.parity = parity
    }
}

/// One symbol read from an image.
public struct Detection: Equatable, Sendable {
    public internal(set) var symbology: Symbology
    /// The payload exactly as the symbol holds it.
    public internal(set) var bytes: [UInt8]
    /// The payload as text, when it is text (see `TextDecoding`).
    public internal(set) var text: String?
    /// Four corners in the input image's pixels: top-left, top-right, bottom-right,
    /// bottom-left as the symbol is read. For linear barcodes, the scanned region's box.
    public internal(set) var corners: [Point]
    /// The QR version, when the engine reports it.
    public internal(set) var version: Int?
    /// The QR error-correction level, when the engine reports it.
    public internal(set) var errorCorrection: ErrorCorrection?
    /// Where the symbol sits in a QR Structured Append sequence, when it is part of one.
    public var structuredAppend: StructuredAppend?
    /// Whether the reader's own error correction vouched for the bytes with a wide margin
    /// (see `Candidate.isSoundlyChecked`).
    var isSoundlyChecked = false
    /// How many of zbar's scan lines read the bytes, the most of any read merged into this
    /// one (`Candidate.scanLines`): what settles two different reads of one symbol that
    /// as many passes made.
    var scanLines: Int?
    /// The engine or reader of ours that made this read (`Pass.engine`): passes of one
    /// engine over the same pixels make the same mistake, so only other engines confirm it.
    var engine: String?
    /// 1 for a QR Code Model 1 symbol, the original QR Code of 1994 (versions 1 to 14, no
    /// alignment patterns); nil for every other symbol, Model 2 QR codes included.
    public var model: Int?

    public init(symbology: Symbology, bytes: [UInt8], corners: [Point],
                version: Int? = nil, errorCorrection: ErrorCorrection? = nil) {
        self.symbology = symbology
        self.bytes = bytes
        self.text = TextDecoding.text(from: bytes)
        self.corners = corners
        self.version = version
        self.errorCorrection = errorCorrection
    }

    /// A detection whose text was decided by `TextDecoding` with what the engine knew.
    init(symbology: Symbology, bytes: [UInt8], text: String?, corners: [Point],
         version: Int?, errorCorrection: ErrorCorrection?) {
        self.symbology = symbology
        self.bytes = bytes
        self.text = text
        self.corners = corners
        self.version = version
        self.errorCorrection = errorCorrection
    }

    /// This detection with its corners mapped through `mapping` (from the pixels of the image
    /// it was read in to those of another), every other field kept: the one way a detection
    /// moves to another image's pixels, so that none of what its reader knew is lost.
    func mapped(through mapping: PixelMapping) -> Detection {
        var moved = self
        moved.corners = corners.map(mapping.apply)
        return moved
    }

    /// The centre of the corners.
    public var center: Point {
        guard !corners.isEmpty else { return Point(x: 0, y: 0) }
        let n = Double(corners.count)
        return Point(x: corners.reduce(0) { $0 + $1.x } / n, y: corners.reduce(0) { $0 + $1.y } / n)
    }
}

extension Detection {
    /// The rectangle the symbol takes with its quiet zone, in the image's pixels: four modules
    /// around a QR code of known version, a fifth of its size around any other. Text
    /// recognition paints it white first, in still images and live frames alike, so that a
    /// code's modules are not read as letters.
    public var quietZone: Region {
        let xs = corners.map(\.x).filter(\.isFinite), ys = corners.map(\.y).filter(\.isFinite)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
            return Region(x: 0, y: 0, width: 0, height: 0)
        }
        let size = max(maxX - minX, maxY - minY)
        let margin = symbology == .qr && (version ?? 0) >= 1 ? size * 4 / Double(17 + 4 * version!) + 2 : size / 5
        let limit = Double(1 << 24)
        let left = max(-limit, minX - margin), top = max(-limit, minY - margin)
        let right = min(limit, maxX + margin), bottom = min(limit, maxY + margin)
        return Region(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }
}
