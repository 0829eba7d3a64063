import Foundation
import QRSealKit

/// `qrseal scan`: every symbol in each image, printed as lines, raw payloads or JSON;
/// sealed messages opened with the keys given.
struct ScanCommand {
    enum Style { case human, raw, json }

    let sources: [String]
    let style: Style
    var reader: Reader
    let outputDirectory: String?
    let writer: PayloadWriter
    /// Where read items are kept, unless --no-store.
    let store: ItemStore?
    /// Where --annotate writes the annotated copy of the one image scanned.
    let annotation: Output?

    /// Set with --text or --text-only.
    let text: TextScan?

    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        let maxPixels = try args.integer("max-pixels", in: 1...(1 << 40), default: ImageDecoder.defaultMaxPixels)
        live = try LiveScan.make(args, console: console)
        guard !args.positionals.isEmpty || live != nil else {
            throw .usage("no image to scan", hint: "give one or more image files, or - for standard input")
        }
        sources = args.positionals
        if args.has("raw") && args.has("json") { throw .usage("--raw and --json cannot be used together") }
        style = args.has("json") ? .json : (args.has("raw") ? .raw : .human)
        let decoder = ImageDecoder(maxPixels: maxPixels)
        let locations = Locations(console: console)
        var detector = Detector(symbologies: try Self.symbologies(args))
        try DetectOptions.configure(args, &detector)
        // What no output may replace: the images, the key files and the inbox.
        let inputs = args.positionals + args.keyFiles + (args.has("no-store") ? [] : [try locations.inboxPath(args)])
        annotation = try DetectOptions.annotation(args, inputs: inputs)
        reader = Reader(decoder: decoder, detector: detector,
                        opener: try args.opener(),
                        keys: try KeySources(args, console: console).keys + locations.keyringKeys(console: console))
        store = args.has("no-store") ? nil : try ItemStore(args, locations: locations)
        outputDirectory = try args.outputDirectory()
        writer = PayloadWriter(force: args.has("force"), inputs: inputs)
        parts = PartIntake(style: style, store: store, outputDirectory: outputDirectory, writer: writer)
        // Last, as it starts Tesseract on a thread of its own, which `run` lets finish.
        text = try TextScan.make(args, console: console, maxPixels: maxPixels)
    }

    /// Parts of larger messages: kept in the inbox until their message is complete.
    var parts: PartIntake

    private static func symbologies(_ args: ParsedArguments) throws(CLIError) -> Set<Symbology> {
        guard let list = args.value("symbology") else { return Symbology.defaultSet }
        var set: Set<Symbology> = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let s = Symbology(rawValue: key) else {
                throw .usage("unknown symbology '\(name)'",
                             hint: "choose from " + Symbology.allCases.map(\.rawValue).joined(separator: ","))
            }
            set.insert(s)
        }
        return set
    }

    /// Set when the command line asks for a camera or a stream instead of image files.
    let live: LiveScan?

    mutating func run(console: Console) -> ExitStatus {
        // The process must not end inside Tesseract's start.
        defer { text?.finish() }
        if let live { return live.run(reader: reader, store: store, parts: parts, text: text, console: console) }
        var found = 0
        var tally = SealedTally()
        // Files are read, decoded and scanned on every core, one after another as cores
        // come free; what they hold is opened, kept and printed in order. Only the
        // annotated image's bytes are kept past its scan.
        let sources = sources, scanner = reader, keepBytes = annotation != nil, text = text
        inOrder(count: sources.count, width: ProcessInfo.processInfo.activeProcessorCount, { i in
            let source = sources[i]
            let loaded = Result { () throws(CLIError) in
                source == "-" ? try StandardInput.image(console, limit: Files.maxInputBytes)
                    : try Files.read(source, console: console)
            }
            let image = Result { () throws(RasterError) in try scanner.decoder.decode((try? loaded.get()) ?? []) }
            let detected = image.map { text?.textOnly == true ? DetectorReport(detections: []) : scanner.detector.examine($0) }
            let recognised = text.flatMap { text in
                (try? image.get()).map { image in
                    Result { () throws(CLIError) in try text.recognize(image, codes: (try? detected.get())?.detections ?? [], source: source) }
                }
            }
            return (keepBytes ? loaded : loaded.map { _ in [] }, detected, recognised)
        }) { i, scanned in
            let read = handle(sources[i], scanned.0, scanned.1, found: &found, tally: &tally, console: console)
            var blocks: [TextBlock] = []
            if let recognised = scanned.2, (try? scanned.1.get()) != nil {
                blocks = handleText(sources[i], recognised, found: &found, tally: &tally, console: console)
            }
            if let annotation, let (bytes, items) = read {
                do throws(CLIError) {
                    try DetectOptions.annotate(bytes, items: items, text: blocks, decoder: reader.decoder, to: annotation,
                                               console: console)
                } catch {
                    tally.failed += 1
                    Diagnostics.report(error, console: console, source: sources[i])
                }
            }
        }
        // zbar opens when a pass first needs it; without it the images were read by zxing-cpp alone.
        if let missing = SharedLibrary.zbar.failure {
            tally.failed += 1
            Diagnostics.report(CLIError(missing), console: console)
        }
        parts.printPending(console: console)
        tally.printHints(console: console)
        return tally.status(otherwise: found > 0 ? .success : .nothingFound)
    }

    /// Opens, keeps and prints what one source held, or reports why it could not be read;
    /// the image's bytes and its items, for --annotate, unless it could not be read.
    @discardableResult
    private mutating func handle(_ source: String, _ loaded: Result<[UInt8], CLIError>,
                                 _ detected: Result<DetectorReport, RasterError>,
                                 found: inout Int, tally: inout SealedTally, console: Console) -> ([UInt8], [Reader.Item])? {
        var read: ([UInt8], [Reader.Item])?
        do {
            let bytes = try loaded.get()
            var items: [Reader.Item]
            do {
                let report = try detected.get()
                tally.failed += Diagnostics.report(report.failures, source: source, console: console)
                items = report.detections.map(reader.classify)
            } catch {
                throw CLIError(message: "\(source): \(error.description)")
            }
            // Parts go to their message; the other symbols are reported one by one.
            let pieces = items.filter { PartIntake.isPiece($0.detection) }
            items.removeAll { PartIntake.isPiece($0.detection) }
            found += pieces.count
            for piece in pieces {
                parts.handle(piece.detection, source: source, inboxSource: source, kind: .file, reader: &reader,
                             tally: &tally, console: console)
            }
            // No passphrase given but a terminal at hand: ask once, then open.
            if items.contains(where: { $0.content.isLocked(kind: "passphrase") }),
               let key = try KeySources.prompt(console: console, confirm: false) {
                reader.keys.append(key)
                // Only the locked ones: opening the others again would count their work twice.
                items = items.map { $0.content.isLocked(kind: "passphrase") ? reader.classify($0.detection) : $0 }
            }
            found += items.count
            // Kept first, for the ids --json gives; an inbox failure is reported after the output.
            var kept: [Inbox.Kept]?
            var storeError: CLIError?
            do { kept = try store?.keep(items.map(\.detection), source: source, kind: .file) } catch { storeError = error }
            for (n, item) in items.enumerated() {
                tally.count(item.content, source: source, console: console)
                do {
                    try output(item, source: source, inboxID: kept?[n].id, console: console)
                } catch {
                    tally.failed += 1
                    Diagnostics.report(error, console: console, source: source)
                }
            }
            read = (bytes, items)
            if let storeError { throw storeError }
        } catch let error as CLIError {
            tally.failed += 1
            Diagnostics.report(error, console: console, source: source)
        } catch {
            tally.failed += 1
            Diagnostics.report(CLIError(message: "\(source): \(error)"), console: console, source: source)
        }
        return read
    }

    /// Opens, keeps and prints the text blocks recognised in one source; the blocks.
    private func handleText(_ source: String, _ recognised: Result<[TextBlock], CLIError>,
                            found: inout Int, tally: inout SealedTally, console: Console) -> [TextBlock] {
        var shown: [TextBlock] = []
        do throws(CLIError) {
            let blocks = try recognised.get().filter { !$0.text.isEmpty }
            shown = blocks
            found += blocks.count
            let contents = blocks.map(reader.open(textBlock:))
            var kept: [Inbox.Kept]?
            var storeError: CLIError?
            let inboxSource = source == "-" ? source : URL(fileURLWithPath: source).standardizedFileURL.path
            do { kept = try store?.store(blocks.map { TextScan.item($0, source: inboxSource, kind: .file) }) } catch { storeError = error }
            for (n, block) in blocks.enumerated() {
                tally.count(contents[n], source: source, console: console)
                switch style {
                case .raw:
                    if case .opened(.text(let plain)) = contents[n] { console.print(plain) }
                    else if case .plain = contents[n] { console.print(block.text) }
                case .human:
                    for line in TextScan.humanLines(source: source, block, contents[n]) { console.print(line) }
                case .json:
                    console.print(JSON.line(TextScan.jsonFields(source: source, block, contents[n], inboxID: kept?[n].id)))
                }
            }
            if let storeError { throw storeError }
        } catch {
            tally.failed += 1
            Diagnostics.report(error, console: console, source: source)
        }
        return shown
    }

    /// Prints one item; a file it carries is written to the output directory, and a failure
    /// to write it is thrown after the item's line is printed.
    private func output(_ item: Reader.Item, source: String, inboxID: Int64?, console: Console) throws(CLIError) {
        let d = item.detection
        var fileNote: String?
        var writeError: CLIError?
        if case .opened(.file(let name, let bytes)) = item.content {
            (fileNote, writeError) = writer.save(bytes, named: name, in: outputDirectory, console: console)
        }
        switch style {
        case .raw:
            switch item.content {
            case .plain: console.write(Data(d.bytes + [0x0A]))
            case .opened(.text(let text)): console.print(text)
            case .opened(.file): console.printError("qrseal: \(DisplayText.escape(source)): \(fileNote!)")
            case .sealed, .failed: break
            }
        case .human:
            console.print(Self.humanLine(source: source, d, item.content, fileNote: fileNote))
        case .json:
            console.print(JSON.line(Self.jsonFields(item, source: source, fileNote: fileNote, inboxID: inboxID)))
        }
        if let writeError { throw writeError }
    }

    /// The line a person reads for one symbol, for images and live frames alike:
    /// `SOURCE: KIND: TEXT` for a plain code, `SOURCE: KIND [sealed]: …` for a sealed one.
    /// The marker comes before anything from the code, and what comes from outside is
    /// escaped, so no payload can make its line, or a line after it, pass for an opened
    /// sealed message.
    static func humanLine(source: String, _ d: Detection, _ content: Reader.Content, fileNote: String?) -> String {
        let head = DisplayText.escape(source) + ": " + d.symbology.displayName
        switch content {
        case .plain: return head + ": " + (d.text.map { DisplayText.escape($0) } ?? "<\(d.bytes.count) bytes of binary data>")
        case .opened(.text(let text)): return head + " [sealed]: " + DisplayText.escape(text)
        case .opened(.file): return head + " [sealed]: " + (fileNote ?? "")
        case let .sealed(kind, size): return head + " [sealed]: <not opened: \(size) bytes, for a \(kind)>"
        case .failed(let error): return head + " [sealed]: <not opened: \(error.description)>"
        }
    }

    static func jsonFields(_ item: Reader.Item, source: String, fileNote: String?,
                           inboxID: Int64? = nil) -> [(String, JSON.Value)] {
        let d = item.detection
        var fields: [(String, JSON.Value)] = [
            ("source", .string(source)),
            ("format", .string(d.symbology.displayName)),
            ("symbology", .string(d.symbology.rawValue)),
        ]
        if let text = d.text { fields.append(("text", .string(text))) }
        fields.append(("bytes_base64", .string(Data(d.bytes).base64EncodedString())))
        fields.append(("corners", .array(d.corners.map { .array([.number($0.x), .number($0.y)]) })))
        if let v = d.version { fields.append(("version", .int(v))) }
        if let model = d.model { fields.append(("model", .int(model))) }
        if let ec = d.errorCorrection { fields.append(("ec_level", .string(ec.rawValue))) }
        if let inboxID { fields.append(("inbox_id", .int(Int(inboxID)))) }
        return fields + sealedFields(item.content, fileNote: fileNote)
    }

    /// The fields `--json` adds for a sealed message, for images and live frames alike.
    static func sealedFields(_ content: Reader.Content, fileNote: String?) -> [(String, JSON.Value)] {
        switch content {
        case .plain: return []
        case .opened(.text(let text)): return [("sealed", .string("opened")), ("plaintext", .string(text))]
        case .opened(.file(let name, let bytes)):
            return [("sealed", .string("opened")), ("file_name", .string(PayloadWriter.fileName(name))),
                    ("file_size", .int(bytes.count))]
        case let .sealed(kind, size):
            return [("sealed", .string("locked")), ("key_kind", .string(kind)), ("sealed_size", .int(size))]
        case .failed(let error):
            return [("sealed", .string("failed")), ("error", .string(error.description))]
        }
    }
}

extension Reader.Content {
    /// Whether this is a sealed message left unopened for want of a key of `kind`.
    func isLocked(kind: String) -> Bool {
        if case .sealed(let k, _) = self { return k == kind }
        return false
    }
}
