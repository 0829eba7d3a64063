import Foundation
@testable import QRSealKit

// passes [--lines] OUT.json IMAGE...
//
// Runs every candidate pass (the first pass, both engines on the image as it is, and both
// engines on each prepared copy below) alone on each image, and writes, per image and pass,
// whether it read the expected content and how long it took. The expected content is
// NAME.txt or NAME.bin beside the image, as in the corpus; with --lines, each line of
// NAME.txt is one code, all of which must be read (Tests/Images/hard). choose.py turns the
// tables into a plan.

// passes --plan EFFORT OUT.json IMAGE...
//
// Profiles the plan instead (profile.py prints the tables): the CPU time of each image's
// decoding, of each pass `Detector` runs at EFFORT and of each census, and what each read.

// passes --evidence OUT.json IMAGE...
//
// Writes, per image, the evidence the plan's gates may look at and what each costs
// (Evidence.swift).

// passes --profiles OUT.json IMAGE...
//
// Runs the grey-profile EAN/UPC reader alone on every image (its gate in the plan aside):
// per image its CPU time and what it read (`profile.py --reader` prints the tables).

// passes --readers [--repeat N] OUT.json IMAGE...
//
// Times our own Data Matrix, Aztec and MicroPDF417 readers alone on each image instead (Readers.swift).

// passes --groups IMAGE X Y R
//
// Prints the finder census's patterns and groups within R pixels of (X, Y), and the image's
// bar regions with the bars each crosses (Groups.swift): why a code forms no region, or why
// a region that is no code's keeps the plan going.

// zxing-cpp runs in the engine's helper, qrseal-engine, which this binary (built under
// bench/passes/.build) does not have beside it: the main package's, built by `make build` or
// `swift build` in the repository root, or QRSEAL_ENGINE.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..").standardized.path
Engine.executable = ProcessInfo.processInfo.environment["QRSEAL_ENGINE"]
    ?? [root + "/.build/release/qrseal-engine", root + "/.build/debug/qrseal-engine"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? root + "/.build/release/qrseal-engine"

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--groups" {
    guard arguments.count == 5, let x = Double(arguments[2]), let y = Double(arguments[3]), let r = Double(arguments[4]) else {
        FileHandle.standardError.write("usage: passes --groups IMAGE X Y R\n".data(using: .utf8)!)
        exit(64)
    }
    try dumpGroups(path: arguments[1], x: x, y: y, r: r)
    exit(0)
}
if arguments.first == "--evidence", arguments.count >= 3 {
    try profileEvidence(output: arguments[1], images: Array(arguments.dropFirst(2)))
    exit(0)
}
if arguments.first == "--readers" {
    var rest = Array(arguments.dropFirst())
    var repeats = 1
    if rest.first == "--repeat", rest.count >= 2, let n = Int(rest[1]), n > 0 { repeats = n; rest.removeFirst(2) }
    guard rest.count >= 2 else {
        FileHandle.standardError.write(Data("usage: passes --readers [--repeat N] OUT.json IMAGE...\n".utf8))
        exit(64)
    }
    try profileReaders(output: rest[0], images: Array(rest.dropFirst()), repeats: repeats)
    exit(0)
}
if arguments.first == "--plan" {
    guard arguments.count >= 4, let effort = Effort(rawValue: arguments[1]) else {
        FileHandle.standardError.write(Data("usage: passes --plan EFFORT OUT.json IMAGE...\n".utf8))
        exit(64)
    }
    try profilePlan(effort: effort, output: arguments[2], images: Array(arguments.dropFirst(3)))
    exit(0)
}
if arguments.first == "--profiles" {
    guard arguments.count >= 3 else {
        FileHandle.standardError.write(Data("usage: passes --profiles OUT.json IMAGE...\n".utf8))
        exit(64)
    }
    try profileReader(output: arguments[1], images: Array(arguments.dropFirst(2)))
    exit(0)
}
let byLine = arguments.first == "--lines"
if byLine { arguments.removeFirst() }
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: passes [--lines] OUT.json IMAGE...\n".utf8))
    exit(64)
}

let harder = ZXingSearch.zxing(harder: true)

/// A candidate pass, on the image with its levels stretched to the full range first when
/// `stretched` is set: a preparation no plan uses, so it is made here rather than as a `Step`.
struct Trial {
    let pass: Pass
    var stretched = false
}
var passes: [Trial] = [Pass(.zxing(harder: false)), Pass(harder), Pass(.zbar), Pass(.zxingGlobal),
                           Pass(.zxing(harder: false), [.invert])].map { Trial(pass: $0) }
// Each copy: whether the image is stretched first, then its steps.
let copies: [(stretched: Bool, steps: [Step])] = [
    [.pad(0.1)], [.invert], [.enlargeTo(400)], [.upscale(2)], [.shrinkTo(800)], [.shrinkTo(400)],
].map { (false, $0) } + [(true, [])] + [
    [.sharpen(radius: 1)], [.sharpen(radius: 2)], [.sharpen(radius: 3)], [.blur(radius: 1)], [.blur(radius: 2)],
    [.threshold(0.025)], [.threshold(0.05)], [.threshold(0.12)], [.growDark(1)], [.growDark(2)], [.growLight(1)],
].map { (false, $0) } + [(true, [.invert])] + [
    [.upscale(2), .sharpen(radius: 2)], [.upscale(2), .threshold(0.05)],
    [.blur(radius: 1), .threshold(0.08)], [.pad(0.1), .enlargeTo(400)], [.growDark(1), .pad(0.1)],
    [.growLight(1), .growDark(1)], [.sharpen(radius: 3), .threshold(0.03)], [.blur(radius: 1), .sharpen(radius: 3)],
    [.invert, .blur(radius: 1), .threshold(0.08)], [.shrinkTo(400), .sharpen(radius: 2)], [.blur(radius: 1), .invert],
].map { (false, $0) }
for copy in copies {
    passes += [Trial(pass: Pass(harder, copy.steps), stretched: copy.stretched),
               Trial(pass: Pass(.zbar, copy.steps), stretched: copy.stretched)]
}
for n in [2, 3] {
    for row in 0..<n {
        for column in 0..<n {
            let tile = [Step.tile(count: n, column: column, row: row)]
            passes += [Trial(pass: Pass(harder, tile)), Trial(pass: Pass(.zbar, tile))]
        }
    }
}

func name(_ candidate: Trial) -> String {
    let steps = candidate.pass.steps.map { "\($0)".replacingOccurrences(of: "QRSealKit.Step.", with: "") }
    return "\(candidate.pass.reader) [\(((candidate.stretched ? ["stretch"] : []) + steps).joined(separator: ", "))]"
}

/// The payloads an image must give: the lines of a several-line .txt, else the file (with
/// and without one trailing newline) or the .bin.
func expected(_ image: URL) -> [[[UInt8]]] {
    let base = image.deletingPathExtension()
    if let text = try? Data(contentsOf: base.appendingPathExtension("txt")) {
        var bytes = [UInt8](text)
        let whole = bytes
        if bytes.last == 10 { bytes.removeLast() }
        return byLine ? bytes.split(separator: 10).map { [Array($0)] } : [[bytes, whole]]
    }
    if let bin = try? Data(contentsOf: base.appendingPathExtension("bin")) { return [[[UInt8](bin)]] }
    return []
}

let clock = ContinuousClock()
let all = Symbology.defaultSet, strong = all.filter(\.isStronglyChecked)
var rows: [[String: Any]] = []
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let data = try? Data(contentsOf: url), let image = try? ImageDecoder().decode([UInt8](data)) else { continue }
    let wanted = expected(url)
    var results: [String: [Any]] = [:]
    for candidate in passes {
        let pass = candidate.pass
        let start = clock.now
        var found: [Detection] = []
        // A stretched copy is a processed one, as the `Step` it once was: strict, matrix codes only.
        let symbologies = candidate.stretched ? strong.filter(\.isMatrix) : pass.isStrict ? strong : all
        let base = candidate.stretched ? image.contrastStretched() : image
        if let (copy, mapping) = PreparedImages(base, maxPixels: ImageDecoder.defaultMaxPixels).image(for: pass.steps) {
            found = pass.run(on: ReaderInput(copy), symbologies: symbologies).compactMap {
                SymbolCheck.detection(from: $0, mapping: mapping, inputWidth: image.width, inputHeight: image.height,
                                      wanted: symbologies)
            }
        }
        let elapsed = clock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        func reads(_ forms: [[UInt8]]) -> Bool {
            found.contains { d in forms.contains(d.bytes) || d.text.map { forms.contains(Array($0.utf8)) } == true }
        }
        let read = wanted.filter(reads).count
        let outcome = !wanted.isEmpty && read == wanted.count ? "correct" : (found.isEmpty ? "missed" : "partial")
        results[name(candidate)] = [outcome, ms]
    }
    rows.append(["file": path, "passes": results])
}
let json = try JSONSerialization.data(withJSONObject: ["passes": passes.map(name), "rows": rows])
try json.write(to: URL(fileURLWithPath: arguments[0]))
