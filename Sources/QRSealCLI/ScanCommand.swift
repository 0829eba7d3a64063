import Foundation
import QRSealKit

/// `qrseal scan`: every symbol in each image, printed as lines, raw payloads or JSON.
struct ScanCommand {
    enum Style { case human, raw, json }

    let sources: [String]
    let style: Style
    let decoder: ImageDecoder
    let detector: Detector

    init(_ args: ParsedArguments) throws(CLIError) {
        guard !args.positionals.isEmpty else {
            throw .usage("no image to scan", hint: "give one or more image files, or - for standard input")
        }
        sources = args.positionals
        if args.has("raw") && args.has("json") { throw .usage("--raw and --json cannot be used together") }
        style = args.has("json") ? .json : (args.has("raw") ? .raw : .human)
        decoder = ImageDecoder(maxPixels: try args.integer("max-pixels", in: 1...Int(Int32.max) * 4,
                                                           default: ImageDecoder.defaultMaxPixels))
        var symbologies = Symbology.defaultSet
        if let list = args.value("symbology") {
            symbologies = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false) {
                let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                guard let s = Symbology(rawValue: key) else {
                    throw .usage("unknown symbology '\(name)'",
                                 hint: "choose from " + Symbology.allCases.map(\.rawValue).joined(separator: ","))
                }
                symbologies.insert(s)
            }
        }
        detector = Detector(symbologies: symbologies)
    }

    func run(console: Console) -> ExitStatus {
        var found = 0, failed = 0
        for source in sources {
            do {
                let image: GrayImage
                do {
                    image = try decoder.decode(try Files.read(source, console: console))
                } catch let error as RasterError {
                    throw CLIError(message: "\(source): \(error.description)")
                }
                let detections = detector.detect(in: image)
                found += detections.count
                for d in detections { output(d, source: source, console: console) }
            } catch let error as CLIError {
                failed += 1
                Diagnostics.report(error, console: console)
            } catch {
                failed += 1
                console.printError("qrseal: error: \(source): \(error)")
            }
        }
        if failed > 0 { return .failure }
        return found > 0 ? .success : .nothingFound
    }

    private func output(_ d: Detection, source: String, console: Console) {
        switch style {
        case .raw:
            console.write(Data(d.bytes + [0x0A]))
        case .human:
            let shown = d.text ?? "<\(d.bytes.count) bytes of binary data>"
            console.print("\(source): \(d.symbology.displayName): \(shown)")
        case .json:
            var fields: [(String, JSON.Value)] = [
                ("source", .string(source)),
                ("format", .string(d.symbology.displayName)),
                ("symbology", .string(d.symbology.rawValue)),
            ]
            if let text = d.text { fields.append(("text", .string(text))) }
            fields.append(("bytes_base64", .string(Data(d.bytes).base64EncodedString())))
            fields.append(("corners", .array(d.corners.map { .array([.number($0.x), .number($0.y)]) })))
            if let v = d.version { fields.append(("version", .int(v))) }
            if let ec = d.errorCorrection { fields.append(("ec_level", .string(ec.rawValue))) }
            console.print(JSON.line(fields))
        }
    }
}
