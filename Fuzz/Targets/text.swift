// The text path: hostile recognised text into the content parsers (dates, addresses, links,
// phones, printed sealed digits), and hostile pictures through the preparation for
// Tesseract and Tesseract itself. First byte even: the rest is text, lines split at line
// feeds, blocks at blank lines, words at spaces. Odd: byte 1 gives the width (1…128) and
// byte 2 a turn of up to ±15°, the rest are pixels; with bit 1 of the first byte set too,
// the picture is laid on light ground three times its size, so that its letters are read
// in rectangles of their own (`TextRegions`), and its top-left quarter is painted out as a
// code's quiet zone would be. Fields always have names and values,
// dates are real days, times real times, postal codes come from the text; a printed sealed
// message is kind sealed and nothing else is; every box lies inside the image.
@testable import QRSealKit

let box = Region(x: 0, y: 0, width: 10, height: 10)
let recognizer: TextRecognizer = {
    let r = try! TextRecognizer(layout: .automatic)
    r.timeBudget = 0.2
    return r
}()

func block(_ text: Substring) -> TextBlock {
    TextBlock(lines: text.split(separator: "\n").map { line in
        TextLine(words: line.split(separator: " ").map { TextWord(text: String($0), confidence: 90, box: box) },
                 confidence: 90, box: box)
    }, confidence: 90, box: box)
}

func checkText(_ text: String) {
    let blocks = text.split(separator: "\n\n").map(block)
    let joined = TextBlock.joiningSealed(blocks)
    require(joined.flatMap(\.lines).map(\.text) == blocks.flatMap(\.lines).map(\.text), "joining lost or moved lines")
    for b in joined {
        require((b.kind == .sealed) == (b.sealedArmor != nil), "sealed kind without armor, or armor without the kind")
        if let armor = b.sealedArmor { require(armor.starts(with: Array(Armor.digitsPrefix.utf8)), "armor without its prefix") }
        for summary in b.contents {
            require(!summary.fields.isEmpty, "a \(summary.kind) without fields")
            require(summary.fields.allSatisfy { !$0.name.isEmpty && !$0.value.isEmpty }, "an empty field in \(summary)")
            for name in ["date", "month_first", "day_first"] {
                guard let iso = summary.value(name) else { continue }
                let ymd = iso.split(separator: "-").compactMap { Int($0) }
                require(ymd.count == 3 && TextDates.isoDate(year: ymd[0], month: ymd[1], day: ymd[2]) == iso, "\(iso) is not a day")
            }
            if let time = summary.value("time") {
                let hms = time.split(separator: ":").compactMap { Int($0) }
                require((2...3).contains(hms.count) && hms[0] < 24 && hms[1] < 60 && (hms.count == 2 || hms[2] < 60),
                        "\(time) is not a time")
            }
            if summary.kind == .address, let code = summary.value("postal_code") {
                require(b.text.contains(code), "postal code \(code) not in the text")
            }
        }
    }
}

func checkImage(_ input: [UInt8]) {
    guard input.count > 3 else { return }
    let width = Int(input[1]) % 128 + 1
    let height = min((input.count - 3) / width, 128)
    guard height > 0 else { return }
    var image = GrayImage(width: width, height: height, pixels: Array(input[3..<3 + width * height]))
    let degrees = (Double(input[2]) - 127.5) / 127.5 * 15
    if abs(degrees) > 0.5 { image = image.turned(by: degrees) }
    var zones: [Region] = []
    if input[0] & 2 != 0 {
        image = image.padded(by: max(image.width, image.height), value: 220)
        zones = [Region(x: -3, y: -3, width: image.width / 2, height: image.height / 2)]
    }
    let measure = TextMeasure(image)
    require(measure.skew.isFinite && abs(measure.skew) <= TextMeasure.maxSkew, "skew \(measure.skew)")
    require(measure.coverage >= 0 && measure.coverage <= 1.0001, "coverage \(measure.coverage)")
    if let regions = TextRegions.regions(marks: measure.marks, letterHeight: measure.letterHeight, width: image.width, height: image.height) {
        require(regions.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.width > 0 && $0.height > 0
                                     && $0.x + $0.width <= image.width && $0.y + $0.height <= image.height },
                "regions \(regions) outside \(image.width)x\(image.height)")
        for (i, a) in regions.enumerated() {
            require(!regions[(i + 1)...].contains { $0.intersects(a) }, "overlapping regions \(regions)")
        }
    }
    guard let blocks = try? recognizer.recognize(image, excluding: zones) else { return }
    for b in blocks {
        for region in [b.box] + b.lines.map(\.box) + b.lines.flatMap(\.words).map(\.box) {
            require(region.x >= 0 && region.y >= 0 && region.width >= 0 && region.height >= 0
                    && region.x + region.width <= image.width && region.y + region.height <= image.height,
                    "box \(region) outside \(image.width)x\(image.height)")
        }
        require(b.corners.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "corners not finite")
        checkText(b.text)
    }
}

/// Tesseract loads its language data here, once, not inside the first input's time limit.
@_cdecl("LLVMFuzzerInitialize")
public func initializeText(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    _ = recognizer
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard let selector = input.first else { return 0 }
    if selector % 2 == 0 {
        checkText(String(decoding: input.dropFirst(), as: UTF8.self))
    } else {
        checkImage(input)
    }
    return 0
}
