import QRSealKit

/// Detection options of `qrseal scan` beyond --symbology: how hard to look, and an
/// annotated copy of the image showing what was read.
enum DetectOptions {
    static let options: [OptionSpec] = [
        OptionSpec(long: "effort", value: "fast|balanced|thorough",
                   help: "How hard to look: fast (one quick pass, then our QR locator if nothing was read), balanced (more passes while nothing "
                       + "is read or finder patterns or bars lie outside the codes read; default), thorough (every pass, to find every code in a crowded picture)."),
        OptionSpec(long: "ean-add-ons",
                   help: "Also read the 2- or 5-digit add-on beside an EAN or UPC code; its digits follow the main code's."),
        OptionSpec(long: "code39-raw",
                   help: "Print a Code 39's characters as they stand, without decoding Full ASCII pairs (+A as a, /A as !)."),
        OptionSpec(long: "annotate", value: "OUT.png",
                   help: "Write a copy of the image with each symbol read outlined and labelled, and with --text each word "
                       + "recognised boxed in blue and each line's kinds written above it (one image only)."),
    ]

    /// Applies the options to the detector.
    static func configure(_ args: ParsedArguments, _ detector: inout Detector) throws(CLIError) {
        if let effort = try args.choice("effort", of: Effort.self) { detector.effort = effort }
        detector.maxPixels = try args.integer("max-pixels", in: 1...(1 << 40), default: ImageDecoder.defaultMaxPixels)
        detector.reading = ReadingOptions(code39FullASCII: !args.has("code39-raw"), eanAddOns: args.has("ean-add-ons"))
    }

    /// Where to write the annotated copy, if anywhere; a usage error unless exactly one
    /// image is scanned, and refused at once when it may not be written (`Output`).
    static func annotation(_ args: ParsedArguments, inputs: [String]) throws(CLIError) -> Output? {
        guard let path = args.value("annotate") else { return nil }
        guard !path.isEmpty, path != "-" else {
            throw .usage("--annotate needs a file name", hint: "for example --annotate found.png")
        }
        guard args.positionals.count == 1 else {
            throw .usage("--annotate takes exactly one image, not \(args.positionals.count)",
                         hint: "scan the images one at a time to annotate each")
        }
        let output = Output(path: path, force: args.has("force"), inputs: inputs)
        try output.check()
        return output
    }

    /// Writes a colour copy of the image in `bytes` to `path`, atomically, with each item's
    /// outline and a numbered label ("1 QR-Code: hello…") drawn on it in green, and the
    /// words of the text blocks boxed in blue, each line's kinds ("url", "date") above it.
    static func annotate(_ bytes: [UInt8], items outcomes: [Outcome], decoder: ImageDecoder,
                         to output: Output, console: Console) throws(CLIError) {
        let items = outcomes.compactMap { outcome in outcome.detection.map { ($0, outcome) } }
        let blocks = outcomes.compactMap { outcome -> TextBlock? in
            if case .text(let block) = outcome.subject { return block }
            return nil
        }
        let path = output.path
        var image: RGBImage
        do {
            image = try decoder.decodeColor(bytes)
        } catch {
            throw CLIError(message: "\(path): cannot annotate: \(error.description)")
        }
        // Lines and letters grow with the picture so that they stay visible when it is shown
        // smaller.
        let side = min(image.width, image.height)
        let thickness = max(2, side / 200), scale = max(1, side / 400)
        for (index, (d, item)) in items.enumerated() {
            let points = d.corners.map { (x: $0.x, y: $0.y) }
            image.drawPolygon(points, color: .green, thickness: thickness)
            let top = d.corners.min { ($0.y, $0.x) < ($1.y, $1.x) } ?? Point(x: 0, y: 0)
            // No wider than the symbol, so that the labels of codes side by side stay apart.
            let xs = d.corners.map(\.x)
            let fits = Int(((xs.max() ?? 0) - (xs.min() ?? 0)) / Double(6 * scale))
            var text = label(index + 1, item)
            if text.count > max(fits, 1) {
                text = String(text.prefix(max(fits - 1, String(index + 1).count))) + "~"
            }
            image.drawLabel(text, x: Int(top.x), y: Int(top.y) - (7 + 2) * scale - thickness,
                            color: .white, background: .green, scale: scale)
        }
        for block in blocks {
            drawText(block, on: &image, thickness: max(1, thickness / 2), scale: scale)
        }
        let png: [UInt8]
        do {
            png = try PNGEncoder.encode(image)
        } catch {
            throw CLIError(message: "\(path): cannot annotate: \(error.description)")
        }
        try output.write(png, console: console)
    }

    /// The block's words boxed, its slanted outline when it was turned to be read, and above
    /// each line the kinds found in it (a printed sealed message: "sealed").
    static func drawText(_ block: TextBlock, on image: inout RGBImage, thickness: Int, scale: Int) {
        if block.corners != block.box.corners {
            image.drawPolygon(block.corners.map { (x: $0.x, y: $0.y) }, color: .blue, thickness: thickness)
        }
        for (n, line) in block.lines.enumerated() {
            for word in line.words {
                image.drawPolygon(word.box.corners.map { (x: $0.x, y: $0.y) }, color: .blue, thickness: thickness)
            }
            var kinds: [String] = block.sealedArmor != nil && n == 0 ? ["sealed"] : []
            for kind in line.contents.map(\.kind.rawValue) where !kinds.contains(kind) { kinds.append(kind) }
            guard !kinds.isEmpty else { continue }
            image.drawLabel(kinds.joined(separator: ","), x: line.box.x, y: line.box.y - (7 + 2) * scale - thickness,
                            color: .white, background: .blue, scale: scale)
        }
    }

    /// "1 QR-Code: hello, wor…": the item's number, kind and the start of what it holds.
    static func label(_ number: Int, _ item: Outcome) -> String {
        guard let d = item.detection else { return "\(number)" }
        let what: String
        switch item.event {
        case .piece(let piece): what = "part \(piece.index + 1) of \(piece.progress.totalParts)"
        case .damagedPiece: what = "damaged part"
        case .message(.plain): what = d.text ?? "\(d.bytes.count) bytes"
        case .message(.opened): what = "sealed, opened"
        case .message(.locked), .message(.failed): what = "sealed"
        }
        let flat = what.map { $0.isNewline ? " " : $0 }
        let short = flat.count > 24 ? String(flat.prefix(23)) + "~" : String(flat)
        return "\(number) \(d.symbology.displayName): \(short)"
    }
}
