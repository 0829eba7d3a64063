/// How the reads of every pass become one list: repeats merged, conflicts settled, parts of
/// a longer symbol dropped, in reading order.
extension Detector {
    /// Drops repeats of the same payload at the same place; of two different payloads read
    /// at the same place (one of them must be wrong), keeps the one whose reader's error
    /// correction vouched for it with a wide margin (`isSoundlyChecked`) when only one was,
    /// else, for an EAN/UPC number, the one more engines read, then the one more of zbar's
    /// scan lines read (`scanLines`), else the one more reads agree on, and neither when
    /// as many agree on each; drops a
    /// linear code read inside a two-dimensional symbol, and a UPC-E or EAN-8 read inside the
    /// bars of a longer EAN/UPC symbol: a part of it that one engine's scan line took for a
    /// whole (`isPart(of:)`).
    static func merged(_ detections: [Detection]) -> [Detection] {
        var symbols: [Detection] = []
        for d in detections {
            if let i = symbols.firstIndex(where: { $0.isSameSymbol(as: d) }) {
                symbols[i] = symbols[i].filling(from: d)
            } else {
                symbols.append(d)
            }
        }
        let support = symbols.map { s in detections.filter { s.agrees(with: $0) }.count }
        // An EAN/UPC number has only its check digit behind it: there, the engines that
        // read it count before the passes (one engine's passes over the same bars repeat its
        // mistake), then zbar's scan lines.
        let weight = symbols.indices.map { i in
            let s = symbols[i], agreeing = detections.filter { s.agrees(with: $0) }
            let product = s.thirteenDigits != nil
            return (s.isSoundlyChecked ? 1 : 0, product ? Set(agreeing.compactMap(\.engine)).count : 0,
                    product ? s.scanLines ?? 0 : 0, support[i])
        }
        let kept = symbols.indices.filter { i in
            !symbols.indices.contains { j in symbols[j].conflicts(with: symbols[i]) && weight[j] >= weight[i] }
        }.map { symbols[$0] }
        return readingOrder(kept.filter { d in !kept.contains { d.isPart(of: $0) } })
    }

    /// Top to bottom, and left to right within a row: symbols whose centres lie within half
    /// a symbol's height of the row's first are in its row, so that a row of codes printed
    /// a pixel or two out of line still reads left to right.
    static func readingOrder(_ detections: [Detection]) -> [Detection] {
        var rows: [[Detection]] = []
        for d in detections.sorted(by: { ($0.center.y, $0.center.x) < ($1.center.y, $1.center.x) }) {
            if let first = rows.last?.first, d.center.y - first.center.y < min(first.extent, d.extent) / 2 {
                rows[rows.count - 1].append(d)
            } else {
                rows.append([d])
            }
        }
        return rows.flatMap { row in row.sorted { $0.center.x < $1.center.x } }
    }
}

extension Detection {
    /// Same symbology, same bytes, and centres close relative to the symbol's size.
    func isSameSymbol(as other: Detection) -> Bool {
        guard symbology == other.symbology, bytes == other.bytes else { return false }
        let dx = center.x - other.center.x, dy = center.y - other.center.y
        let span = max(extent, other.extent, 1)
        return (dx * dx + dy * dy).squareRoot() < span / 2
    }

    /// Whether `other` is a read of this symbol: the same symbol, or its UPC-A form read as
    /// the EAN-13 it also is (a leading 0), or the other way round, at the same place.
    func agrees(with other: Detection) -> Bool {
        if isSameSymbol(as: other) { return true }
        let zero = UInt8(ascii: "0")
        let (ean, upc) = symbology == .ean13 ? (self, other) : (other, self)
        guard ean.symbology == .ean13, upc.symbology == .upca, ean.bytes == [zero] + upc.bytes else { return false }
        let dx = center.x - other.center.x, dy = center.y - other.center.y
        return (dx * dx + dy * dy).squareRoot() < max(extent, other.extent, 1) / 2
    }

    /// Same symbology read at the same place with about the same size, but different bytes
    /// (for DataBar Expanded, at places that overlap or touch: `boxesMeet(_:)`).
    /// A code inside a code differs in size, so both of those are kept. An EAN-13 and a
    /// UPC-A (or ISBN-13) are one symbology here, compared in their 13-digit form: zbar
    /// reads a blurred UPC-A as other valid EAN-13 numbers on some of its scan lines, in
    /// the same bars, whose box is a few of those lines high and so centred elsewhere along
    /// the bars: two such reads conflict when their centres lie within half the longer
    /// one's width, where no two product codes can both be, whatever their sizes.
    func conflicts(with other: Detection) -> Bool {
        // A main code read alone, beside a read of it with its add-on, is no conflict.
        guard !isMainCode(of: other), !other.isMainCode(of: self) else { return false }
        let dx = center.x - other.center.x, dy = center.y - other.center.y
        let span = max(extent, other.extent, 1)
        let sizeRatio = min(extent, other.extent) / span
        if let mine = thirteenDigits, let theirs = other.thirteenDigits {
            return mine != theirs && (dx * dx + dy * dy).squareRoot() < span / 2
        }
        guard symbology == other.symbology, bytes != other.bytes else { return false }
        // zbar pairs the rows of a DataBar Expanded Stacked symbol one by one, and now and
        // then takes some of them for a whole symbol whose checksum holds (its check
        // character covers a few bits per character): two Expanded reads whose boxes
        // overlap or touch are one symbol read two ways, never two symbols.
        if symbology == .databarExpanded, boxesMeet(other) { return true }
        return (dx * dx + dy * dy).squareRoot() < span / 8 && sizeRatio > 0.8
    }

    /// Whether the corners' bounding boxes of this read and `other` overlap or touch.
    func boxesMeet(_ other: Detection) -> Bool {
        let (ax, ay) = (corners.map(\.x), corners.map(\.y)), (bx, by) = (other.corners.map(\.x), other.corners.map(\.y))
        guard let ax0 = ax.min(), let ax1 = ax.max(), let ay0 = ay.min(), let ay1 = ay.max(),
              let bx0 = bx.min(), let bx1 = bx.max(), let by0 = by.min(), let by1 = by.max() else { return false }
        return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1
    }

    /// An EAN-13, ISBN-13 or UPC-A in its 13-digit EAN-13 form; nil for other symbologies.
    var thirteenDigits: [UInt8]? {
        switch symbology {
        case .ean13, .isbn13: return bytes
        case .upca: return [UInt8(ascii: "0")] + bytes
        default: return nil
        }
    }

    /// Whether this read is a piece of `other` taken for a symbol of its own: a linear code
    /// whose centre lies within a two-dimensional symbol (zbar's scan lines now and then
    /// find a GS1 DataBar, whose checksum is 79 to 1, in a dense QR code's modules; nothing
    /// prints a barcode inside one), or an EAN-8 or UPC-E within the box of a longer EAN/UPC
    /// symbol (seven-module digits inside a longer symbol's bars can pass for a shorter
    /// symbol of its own, never the other way round), or an MSI within the box of a code of
    /// another kind, or an EAN/UPC code read without the
    /// add-on another read of it has (`isMainCode(of:)`).
    func isPart(of other: Detection) -> Bool {
        if isMainCode(of: other) { return true }
        if !symbology.isMatrix, other.symbology.isMatrix, other.corners.count == 4 {
            return other.corners.encloses(center)
        }
        let xs = other.corners.map(\.x), ys = other.corners.map(\.y)
        // MSI Plessey's checks are weak: an MSI read within another code's box is some of
        // that code's bars taken for MSI's.
        if symbology == .msi, other.symbology != .msi, let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(),
           let y1 = ys.max() {
            return (x0...x1).contains(center.x) && (y0...y1).contains(center.y)
        }
        guard let modules = symbology.eanModules, let longer = other.symbology.eanModules, modules < longer
        else { return false }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return false }
        return (x0...x1).contains(center.x) && (y0...y1).contains(center.y)
    }

    /// The larger side of the corners' bounding box.
    var extent: Double {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
    }

    /// This detection with the text, version and error-correction level another read of
    /// the same symbol knew and this one did not.
    func filling(from other: Detection) -> Detection {
        guard text == nil && other.text != nil || version == nil && other.version != nil
                || errorCorrection == nil && other.errorCorrection != nil
                || structuredAppend == nil && other.structuredAppend != nil
                || (other.scanLines ?? 0) > (scanLines ?? 0)
                || !isSoundlyChecked && other.isSoundlyChecked else { return self }
        var filled = self
        filled.text = text ?? other.text
        filled.version = version ?? other.version
        filled.errorCorrection = errorCorrection ?? other.errorCorrection
        filled.structuredAppend = structuredAppend ?? other.structuredAppend
        filled.isSoundlyChecked = isSoundlyChecked || other.isSoundlyChecked
        filled.model = model ?? other.model
        filled.scanLines = max(scanLines ?? 0, other.scanLines ?? 0)
        return filled
    }
}
