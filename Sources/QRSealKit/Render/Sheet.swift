/// A paper size for printed sheets.
public enum Paper: String, CaseIterable, Sendable {
    /// ISO 216 A4, 210 × 297 mm.
    case a4
    /// US Letter, 8.5 × 11 in.
    case letter

    /// Width and height in PostScript points (1/72 in).
    public var points: (width: Double, height: Double) {
        switch self {
        case .a4: return (210 * Sheet.pointsPerMillimetre, 297 * Sheet.pointsPerMillimetre)
        case .letter: return (612, 792)
        }
    }

    public var displayName: String { self == .a4 ? "A4" : "Letter" }
}

/// A printable sheet of a message: pages with a grid of its codes, a label under each, and
/// a header and footer that say what the pages hold and how to restore it.
///
/// The grid follows the largest symbol: as many cells as fit the page when every module
/// prints at ``minimumModuleMillimetres`` (and each cell is wide enough for its label);
/// the codes then grow to fill their cells, up to ``maximumModuleMillimetres``. A message
/// that fits one page gets the grid of its own count that prints its modules largest.
/// `perPage` sets the count instead, refused when the modules would be smaller than the
/// minimum.
public struct Sheet: Sendable {
    /// The smallest module printed: at 300 dpi, about 6 dots.
    public static let minimumModuleMillimetres = 0.5
    /// The largest module printed, so that one small code does not fill a page.
    public static let maximumModuleMillimetres = 1.5
    /// The most symbols a sheet takes.
    public static let maximumSymbols = 4096
    static let pointsPerMillimetre = 72 / 25.4

    public let paper: Paper
    public let columns: Int
    public let rows: Int
    /// Codes on each page (the last page may have fewer).
    public let perPage: Int
    public let pageCount: Int
    /// The printed size of one module.
    public let moduleMillimetres: Double

    let message: EncodedMessage
    let name: String?
    let note: String?

    // Page geometry in points.
    static let margin = 10 * pointsPerMillimetre
    static let gap = 3 * pointsPerMillimetre
    static let headerHeight = 3 * lineHeight + 6
    static let footerHeight = lineHeight + 4
    static let labelHeight = 11.0
    static let lineHeight = 12.0
    /// The narrowest cell, so that a label such as "K7F2 · part 123 of 999" fits under its code.
    static let minimumCellWidth = 34 * pointsPerMillimetre
    /// Modules of quiet zone around each code (4, the QR standard's, unless asked otherwise).
    public let quietZone: Int

    /// Lays out `message` on `paper`; `name` is the file name shown in the header (escaped
    /// here for display), nil for text without one; `note` is said after what the codes are
    /// ("sealed: opening it needs the passphrase").
    public init(_ message: EncodedMessage, paper: Paper = .a4, perPage: Int? = nil, name: String? = nil,
                note: String? = nil, quietZone: Int = 4) throws(RenderError) {
        precondition(quietZone >= 0, "a quiet zone cannot be negative")
        self.quietZone = quietZone
        guard !message.symbols.isEmpty else { throw .noSymbols }
        guard message.symbols.count <= Self.maximumSymbols else {
            throw .tooManySymbols(count: message.symbols.count, limit: Self.maximumSymbols)
        }
        self.message = message
        self.name = name
        self.note = note
        self.paper = paper
        let version = message.symbols.map(\.matrix.version).max()!
        let side = Double(message.symbols.map(\.matrix.size).max()! + 2 * quietZone)
        let area = Self.area(paper)
        let minModule = Self.minimumModuleMillimetres * Self.pointsPerMillimetre
        let cellWidth = max(side * minModule, Self.minimumCellWidth)
        let fitColumns = max(0, Int((area.width + Self.gap) / (cellWidth + Self.gap)))
        let fitRows = max(0, Int((area.height + Self.gap) / (side * minModule + Self.labelHeight + Self.gap)))
        let fits = fitColumns * fitRows
        let count = message.symbols.count
        let wanted = perPage ?? min(fits, count)
        guard wanted >= 1, wanted <= fits else {
            throw .tooDense(perPage: max(wanted, 1), fits: fits, version: version, paper: paper)
        }
        // The grid of at least `wanted` cells, within what fits, whose modules print largest.
        var best = (columns: 1, rows: wanted, module: 0.0)
        for c in 1...min(wanted, fitColumns) {
            let r = (wanted + c - 1) / c
            guard r <= fitRows else { continue }
            let m = Self.module(columns: c, rows: r, side: side, area: area)
            if m > best.module + 1e-9 || (abs(m - best.module) <= 1e-9 && c * r < best.columns * best.rows) {
                best = (c, r, m)
            }
        }
        columns = best.columns
        rows = best.rows
        self.perPage = wanted
        pageCount = (count + wanted - 1) / wanted
        moduleMillimetres = best.module / Self.pointsPerMillimetre
    }

    /// The part of the page the grid may use, in points.
    static func area(_ paper: Paper) -> (width: Double, height: Double) {
        let page = paper.points
        return (page.width - 2 * margin, page.height - 2 * margin - headerHeight - footerHeight)
    }

    /// The module size in points of a code of `side` modules (quiet zone included) in a
    /// `columns` × `rows` grid filling `area`, capped at the maximum.
    static func module(columns: Int, rows: Int, side: Double, area: (width: Double, height: Double)) -> Double {
        let cellWidth = (area.width - Double(columns - 1) * gap) / Double(columns)
        let cellHeight = (area.height - Double(rows - 1) * gap) / Double(rows) - labelHeight
        return min(cellWidth / side, cellHeight / side, maximumModuleMillimetres * pointsPerMillimetre)
    }

    /// The SHA-256 as hex in groups of four digits.
    static func grouped(_ digest: [UInt8]) -> String {
        let hex = digest.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        var groups: [Substring] = []
        var rest = Substring(hex)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// The drawing of every page, in points from the top left corner.
    var drawing: SheetDrawing {
        let page = paper.points
        let area = Self.area(paper)
        let module = moduleMillimetres * Self.pointsPerMillimetre
        let cellWidth = (area.width - Double(columns - 1) * Self.gap) / Double(columns)
        let cellHeight = (area.height - Double(rows - 1) * Self.gap) / Double(rows)
        let gridTop = Self.margin + Self.headerHeight
        let count = message.symbols.count
        let version = message.symbols.map(\.matrix.version).max()!
        let level = message.symbols[0].matrix.level.rawValue
        let title = name.map { DisplayText.escape($0) } ?? "message without a file name"
        let codes = count == 1 ? "one code" : "\(count) codes, any \(message.dataParts) restore it"
        let about = [message.id.map { "message \(DisplayText.escape($0))" }, codes, "QR version \(version), level \(level)",
                     note.map { DisplayText.escape($0) }]
            .compactMap { $0 }.joined(separator: " · ")
        let restore = count == 1 ? "to restore, scan the code: qrseal scan page.png"
            : "to restore, scan all pages: qrseal scan page-*.png — any \(message.dataParts) of \(count) codes suffice"
        let width = page.width - 2 * Self.margin
        var pages: [SheetDrawing.Page] = []
        for p in 0..<pageCount {
            var drawn = SheetDrawing.Page()
            let y0 = Self.margin
            drawn.texts = [
                .init(text: title, x: Self.margin, y: y0 + 10, size: 10, style: .bold, width: width * 0.8),
                .init(text: "page \(p + 1) of \(pageCount)", x: page.width - Self.margin, y: y0 + 10, size: 8,
                      align: .right, width: width * 0.2),
                .init(text: "\(message.totalBytes) bytes · SHA-256 " + Self.grouped(message.sha256),
                      x: Self.margin, y: y0 + 10 + Self.lineHeight, size: 7.5, style: .mono, width: width),
                .init(text: about, x: Self.margin, y: y0 + 10 + 2 * Self.lineHeight, size: 8, width: width),
                .init(text: restore, x: Self.margin, y: page.height - Self.margin, size: 8, width: width),
            ]
            for slot in 0..<perPage {
                let index = p * perPage + slot
                guard index < count else { break }
                let symbol = message.symbols[index]
                let (c, r) = (slot % columns, slot / columns)
                let cellX = Self.margin + Double(c) * (cellWidth + Self.gap)
                let cellY = gridTop + Double(r) * (cellHeight + Self.gap)
                let codeSide = Double(symbol.matrix.size + 2 * quietZone) * module
                let x = cellX + (cellWidth - codeSide) / 2
                let y = cellY + (cellHeight - Self.labelHeight - codeSide) / 2
                let q = Double(quietZone) * module
                drawn.codes.append(.init(matrix: symbol.matrix, x: x + q, y: y + q, module: module))
                if let label = symbol.label {
                    drawn.texts.append(.init(text: DisplayText.escape(label), x: cellX + cellWidth / 2,
                                             y: y + codeSide + 8, size: 7, align: .center, width: cellWidth))
                }
            }
            pages.append(drawn)
        }
        let subject = "\(message.totalBytes) bytes, SHA-256 " + Self.grouped(message.sha256).replacing(" ", with: "")
        return SheetDrawing(width: page.width, height: page.height, title: title, subject: subject, pages: pages)
    }
}

/// What a sheet's pages show, as the PDF writer draws it: codes and lines of text placed in
/// points from the page's top left corner.
struct SheetDrawing {
    struct Code {
        let matrix: QRMatrix
        /// The top left corner of the symbol itself, inside its quiet zone.
        let x: Double
        let y: Double
        let module: Double
    }

    struct Text {
        enum Style { case regular, bold, mono }
        enum Alignment { case left, center, right }
        let text: String
        /// The anchor (left end, centre or right end, by `align`) of the baseline.
        let x: Double
        let y: Double
        let size: Double
        var style: Style = .regular
        var align: Alignment = .left
        /// The most the line may take; a longer one is set smaller, then shortened in the middle.
        let width: Double
    }

    struct Page {
        var codes: [Code] = []
        var texts: [Text] = []
    }

    let width: Double
    let height: Double
    let title: String
    let subject: String
    let pages: [Page]
}
