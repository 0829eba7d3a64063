// Writes the seed corpora in Fuzz/corpus/TARGET/: a few valid inputs per target, made by
// QRSealKit itself (and TurboJPEG for the JPEGs), so that the fuzzers start from inputs that
// reach deep into each reader. Run by `Fuzz/build.sh --seeds`; the output is committed.
import CTurboJPEG
import Foundation
@testable import QRSealKit

@main
struct Seeds {
    static let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fuzz/corpus"

    static func main() throws {
        let qr = try QREncoder(level: .low).encode(.text("qrseal")).image(scale: 1, margin: 2)
        try images(qr)
        try pictures(qr)
        try exif(qr)
        try y4m()
        try camera(qr)
        try sealed()
        try brotli()
        try keyFiles()
        try importLines()
        try contentKinds()
        try timestamps()
        try displayTexts()
        try detector()
        try text()
    }

    static func write(_ target: String, _ name: String, _ bytes: [UInt8]) throws {
        let folder = root + "/" + target
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    static func write(_ target: String, _ name: String, _ text: String) throws {
        try write(target, name, Array(text.utf8))
    }

    // MARK: pictures

    /// BMP, GIF, TIFF, WebP, SVG and PDF of the code, two frames or pages where the format
    /// has several, made by ImageMagick's `convert` and `rsvg-convert` from a PNG (skipped
    /// when they are missing: `make setup` installs both).
    static func pictures(_ qr: GrayImage) throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("qrseal-seeds-\(getpid())")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let png = temporary.appendingPathComponent("qr.png").path
        try Data(PNGEncoder.encode(qr)).write(to: URL(fileURLWithPath: png))
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"24\" height=\"24\"><rect width=\"24\" height=\"24\" fill=\"#fff\"/>"
            + "<rect x=\"4\" y=\"4\" width=\"8\" height=\"8\"/></svg>\n"
        try write("pictures", "square.svg", svg)
        let svgPath = temporary.appendingPathComponent("square.svg").path
        try Data(svg.utf8).write(to: URL(fileURLWithPath: svgPath))
        let made: [(String, String, [String])] = [
            ("qr-24bit.bmp", "convert", [png, "-type", "truecolor", "BMP3:%"]),
            ("qr-rle8.bmp", "convert", [png, "-type", "palette", "-compress", "RLE", "BMP3:%"]),
            ("qr-two-frames.gif", "convert", [png, png, "-negate", "%"]),
            ("qr-two-pages.tiff", "convert", [png, png, "-compress", "LZW", "%"]),
            ("qr-lossless.webp", "convert", [png, "-define", "webp:lossless=true", "%"]),
            ("qr-lossy.webp", "convert", [png, "-quality", "70", "%"]),
            ("square-two-pages.pdf", "rsvg-convert", ["-f", "pdf", "-o", "%", svgPath, svgPath]),
        ]
        for (name, tool, arguments) in made {
            let output = temporary.appendingPathComponent(name).path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
            process.arguments = arguments.map { $0.replacingOccurrences(of: "%", with: output) }
            guard (try? process.run()) != nil else { continue }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { continue }
            try write("pictures", name, Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        }
    }

    // MARK: images

    static func images(_ qr: GrayImage) throws {
        try write("image", "qr-1bit.png", PNGEncoder.encode(qr))
        var gray = qr
        gray[0, 0] = 128
        try write("image", "qr-gray.png", PNGEncoder.encode(gray))
        try write("image", "qr-rgb.png", PNGEncoder.encode(RGBImage(qr)))
        try write("image", "qr-gray.jpg", jpeg(qr, color: false, progressive: false))
        try write("image", "qr-color.jpg", jpeg(qr, color: true, progressive: false))
        try write("image", "qr-progressive.jpg", jpeg(qr, color: true, progressive: true))
        try write("image", "qr-exif-right.jpg", withExif(jpeg(qr, color: false, progressive: false), tiff(6, bigEndian: false)))
        let w = qr.width, h = qr.height
        let header = "\(w) \(h)\n"
        try write("image", "qr.pgm", Array("P5\n# comment\n\(header)255\n".utf8) + qr.pixels)
        try write("image", "qr-16bit.pgm", Array("P5\n\(header)65535\n".utf8) + qr.pixels.flatMap { [$0, $0] })
        try write("image", "qr.ppm", Array("P6\n\(header)255\n".utf8) + qr.pixels.flatMap { [$0, $0, $0] })
        let bits = (0..<h).flatMap { y in
            stride(from: 0, to: w, by: 8).map { x0 in
                (0..<8).reduce(UInt8(0)) { byte, i in
                    let x = x0 + i
                    return byte << 1 | (x < w && qr[x, y] < 128 ? 1 : 0)
                }
            }
        }
        try write("image", "qr.pbm", Array("P4\n\(header)".utf8) + bits)
        let rows = (0..<h).map { y in (0..<w).map { qr[$0, y] < 128 ? "1" : "0" }.joined(separator: " ") }
        try write("image", "qr-ascii.pbm", "P1\n\(header)" + rows.joined(separator: "\n") + "\n")
        let grays = (0..<h).map { y in (0..<w).map { String(qr[$0, y] / 17) }.joined(separator: " ") }
        try write("image", "qr-ascii.pgm", "P2\n\(header)15\n" + grays.joined(separator: "\n") + "\n")
        try write("image", "tiny-ascii.ppm", "P3\n2 1\n255\n255 0 0  0 0 255\n")
    }

    /// `image` compressed with TurboJPEG's `tjCompress2`.
    static func jpeg(_ image: GrayImage, color: Bool, progressive: Bool) -> [UInt8] {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        let samples = color ? RGBImage(image).samples : image.pixels
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let format = color ? TJPF_RGB : TJPF_GRAY
        let subsampling = color ? TJSAMP_420 : TJSAMP_GRAY
        let result = tjCompress2(handle, samples, Int32(image.width), 0, Int32(image.height), Int32(format.rawValue),
                                 &output, &size, Int32(subsampling.rawValue), 75, progressive ? TJFLAG_PROGRESSIVE : 0)
        precondition(result == 0, "tjCompress2 failed")
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    // MARK: EXIF

    /// A TIFF structure whose IFD0 holds a date tag and the orientation tag (SHORT).
    static func tiff(_ orientation: UInt16, bigEndian: Bool, long: Bool = false) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        let value = long ? u32(UInt32(orientation)) : u16(orientation) + [0, 0]
        return (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + u16(2)
            + u16(0x0132) + u16(2) + u32(4) + Array("2026".utf8)
            + u16(0x0112) + u16(long ? 4 : 3) + u32(1) + value + u32(0)
    }

    /// `jpeg` with an APP1 `Exif\0\0` segment holding `tiff` right after its SOI marker.
    static func withExif(_ jpeg: [UInt8], _ tiff: [UInt8]) -> [UInt8] {
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return Array(jpeg[..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + jpeg[2...]
    }

    static func exif(_ qr: GrayImage) throws {
        let small = jpeg(GrayImage(width: 2, height: 2, filledWith: 200), color: false, progressive: false)
        try write("exif", "intel-right.jpg", withExif(small, tiff(6, bigEndian: false)))
        try write("exif", "motorola-left.jpg", withExif(small, tiff(8, bigEndian: true)))
        try write("exif", "long-down.jpg", withExif(small, tiff(3, bigEndian: false, long: true)))
        try write("exif", "intel-mirrored.tiff", tiff(5, bigEndian: false))
        try write("exif", "motorola-down.tiff", tiff(3, bigEndian: true))
    }

    // MARK: YUV4MPEG2

    static func y4m() throws {
        let luma = [UInt8](repeating: 128, count: 16)
        try write("y4m", "420jpeg-2-frames.y4m", Array("YUV4MPEG2 W4 H4 F30:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n".utf8)
                  + [0, 1].flatMap { _ in Array("FRAME\n".utf8) + luma + [UInt8](repeating: 128, count: 8) })
        try write("y4m", "mono.y4m", Array("YUV4MPEG2 W4 H4 F25:1 Cmono\nFRAME\n".utf8) + luma)
        try write("y4m", "444-odd.y4m", Array("YUV4MPEG2 W3 H3 F0:0 A0:0 It C444\nFRAME Ixyz\n".utf8)
                  + [UInt8](repeating: 9, count: 27))
        try write("y4m", "422.y4m", Array("YUV4MPEG2 H2 W2 C422\nFRAME\n".utf8) + [UInt8](repeating: 9, count: 8))
    }

    // MARK: camera buffers

    /// For each pixel format: its index, an 8×4 size, no stride of its own, and a buffer of
    /// the size that format takes (a JPEG for the compressed ones).
    static func camera(_ qr: GrayImage) throws {
        let (w, h) = (8, 4)
        for (index, format) in PixelFormat.allCases.enumerated() {
            let body: [UInt8]
            switch format {
            case .mjpeg, .jpeg: body = jpeg(qr, color: true, progressive: false)
            case .grey: body = (0..<(w * h)).map { UInt8($0 * 7 % 256) }
            case .yuyv, .uyvy: body = (0..<(w * h * 2)).map { UInt8($0 * 5 % 256) }
            case .nv12, .nv21, .yu12, .yv12: body = (0..<(w * h * 3 / 2)).map { UInt8($0 * 3 % 256) }
            }
            let size: [UInt8] = format == .mjpeg || format == .jpeg ? [UInt8(qr.width - 1), UInt8(qr.height - 1)] : [UInt8(w - 1), UInt8(h - 1)]
            try write("camera", "\(format.rawValue.lowercased()).bin", [UInt8(index)] + size + [0] + body)
        }
    }

    // MARK: armor, envelopes and inner plaintexts

    static let testKey = SecretKey(bytes: Array(0..<32))

    static func sealed() throws {
        var sealer = Sealer(scrypt: ScryptParameters(log2N: 1, r: 8, p: 1))
        sealer.fixedRandom = (salt: [UInt8](repeating: 1, count: 16), nonce: [UInt8](repeating: 2, count: 12))
        let prose = String(repeating: "the lamp was lit at dusk, ", count: 8)
        let envelopes = [
            ("key-text", try sealer.seal(.text("hi"), with: .keyFile(testKey))),
            ("key-prose", try sealer.seal(.text(prose), with: .keyFile(testKey))),
            ("key-file", try sealer.seal(.file(name: "notes.txt", bytes: Array(prose.utf8)), with: .keyFile(testKey))),
            ("passphrase-text", try sealer.seal(.text("hi"), with: .passphrase("fuzz"))),
        ]
        for (name, envelope) in envelopes {
            try write("armor", name + ".digits", Armor.text(for: envelope))
            try write("armor", name + ".binary", Armor.magic + envelope)
            try write("envelope", name + ".envelope", [0] + envelope)
        }
        let digits = Armor.text(for: envelopes[0].1)
        try write("armor", "pasted-lowercase.txt", "  qrseal1:" + digits.dropFirst(8).enumerated()
            .map { $0.offset % 20 == 19 ? "\($0.element)\n" : String($0.element) }.joined() + "\n")
        try write("armor", "version-2.txt", "QRSEAL2:123")
        let inner = [
            ("text", try InnerPlaintext.encode(.text("hello"), compress: false)),
            ("text-compressed", try InnerPlaintext.encode(.text(prose), compress: true)),
            ("file", try InnerPlaintext.encode(.file(name: "a.txt", bytes: [1, 2, 3]), compress: false)),
            ("file-compressed", try InnerPlaintext.encode(.file(name: "notes.txt", bytes: Array(prose.utf8)), compress: true)),
            ("file-unnamed", try InnerPlaintext.encode(.file(name: "", bytes: []), compress: false)),
        ]
        for (name, bytes) in inner { try write("envelope", name + ".inner", [1] + bytes) }
        // Parts of a plain and a sealed message, a frame and both armors each.
        for (name, whole) in [("plain", inner[1].1), ("sealed", envelopes[1].1)] {
            for part in try MessageParts.split(whole, dataParts: 3, totalParts: 5).prefix(4) {
                try write("parts", "\(name)-\(part.index).frame", part.frame)
                try write("parts", "\(name)-\(part.index).binary", Armor.magic + part.frame)
                try write("parts", "\(name)-\(part.index).digits", Part.digitsPrefix + String(decoding: Digits.encode(part.frame), as: UTF8.self))
            }
        }
    }

    static func brotli() throws {
        let prose = Array(String(repeating: "the lamp was lit at dusk, lens cleaned. ", count: 20).utf8)
        try write("brotli", "prose.br", Compression.compress(prose, text: true)!)
        try write("brotli", "bytes.br", Compression.compress((0..<1024).map { UInt8($0 * 7 & 0xFF) }, text: false)!)
        try write("brotli", "empty.br", Compression.compress([], text: false)!)
        try write("brotli", "zeros.br", Compression.compress([UInt8](repeating: 0, count: 60_000), text: false)!)
    }

    // MARK: key files, import lines, content kinds

    static func keyFiles() throws {
        try write("keyfile", "key.txt", testKey.text + "\n")
        try write("keyfile", "key-lowercase.txt", "  " + testKey.text.lowercased() + "\r\n")
        try write("keyfile", "example.txt", "QRSEAL-KEY-1-AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPQENYKIM")
    }

    static func importLines() throws {
        let items = [
            InboxItem(id: 1, receivedAt: 1_764_590_283_123, sourceKind: .file, source: "photo.png", symbology: "qr",
                      bytes: Array("https://example.org".utf8), text: "https://example.org", kind: .url,
                      corners: [Point(x: 1, y: 2), Point(x: 30.5, y: 2), Point(x: 30.5, y: 31), Point(x: 1, y: 31)],
                      label: "site, \"quoted\"", pinned: true),
            InboxItem(id: 2, receivedAt: 0, sourceKind: .text, source: "-", symbology: "text",
                      bytes: Array("BEGIN:VCARD\nFN:A\nEND:VCARD".utf8), text: "BEGIN:VCARD\nFN:A\nEND:VCARD", kind: .contact),
            InboxItem(id: 3, receivedAt: -86_400_000, sourceKind: .file, source: "bin.png", symbology: "qr",
                      bytes: [0, 255, 10, 13], text: nil, kind: .binary),
        ]
        try write("import", "items.jsonl", items.map { InboxFormat.json.encode($0) }.joined(separator: "\n") + "\n")
        try write("import", "items.csv", InboxFormat.csvHeader + "\n" + items.map { InboxFormat.csv.encode($0) }.joined(separator: "\r\n") + "\r\n")
        // Version 2: the items, then pieces of waiting messages (a part and a Structured Append symbol).
        let part = try MessageParts.split(try InnerPlaintext.encode(.text("a message in three parts"), compress: false),
                                          dataParts: 2, totalParts: 3)[2]
        let pieces = [
            Inbox.WaitingPiece(Inbox.Piece(part), symbology: "qr", sourceKind: .file, source: "/scans/a.png", receivedAt: 1_764_590_283_123),
            Inbox.WaitingPiece(Inbox.Piece(structuredAppend: 0, of: 2, parity: 0x3F, bytes: Array("Meet at the north gate at 0900. ".utf8)),
                               symbology: "qr", sourceKind: .camera, source: "/dev/video0", receivedAt: 0),
        ]
        for format in InboxFormat.allCases {
            let end = format == .csv ? "\r\n" : "\n"
            let lines = [format.header] + items.map { format.encode($0) } + pieces.map { format.encode($0) }
            try write("import", "export-v2." + (format == .csv ? "csv" : "jsonl"), lines.joined(separator: end) + end)
        }
    }

    static func contentKinds() throws {
        let samples = [
            "WIFI:S:home net;T:WPA;P:pa\\;ss;H:true;;", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nTEL:+44 1\r\nEND:VCARD",
            "MECARD:N:Lovelace,Ada;TEL:123;EMAIL:a@b.org;;", "BEGIN:VEVENT\nSUMMARY:talk\nDTSTART:20261201T100000Z\nEND:VEVENT",
            "mailto:a@example.org?subject=hi&body=there", "MATMSG:TO:a@b.org;SUB:hi;BODY:x;;", "SMSTO:+15551234:hello",
            "tel:+1-555-1234", "geo:52.5,13.4?q=berlin", "https://example.org/a?b=c", "MEBKM:TITLE:x;URL:http\\://a.b;;",
            "ada@example.org", "plain words",
        ]
        for (index, text) in samples.enumerated() { try write("content", "text-\(index)", [0] + Array(text.utf8)) }
        try write("content", "ean13", [1] + Array("4006381333931".utf8))
        try write("content", "upce", [4] + Array("01234565".utf8))
        try write("content", "isbn", [6] + Array("9780306406157".utf8))
        try write("content", "binary", [0, 0xFF, 0xFE, 0])
    }

    /// The first byte picks the zone assumed for times without one; 0x30 is UTC.
    static func timestamps() throws {
        try write("timestamp", "full-utc", [0x30] + Array("2026-12-01T11:58:03.123Z".utf8))
        try write("timestamp", "local-minutes", [0x34] + Array("2026-12-01 11:58".utf8))
        try write("timestamp", "offset", [0x30] + Array("2026-02-28T23:59:59.9+05:30".utf8))
        try write("timestamp", "leap-day", [0x30] + Array("2024-02-29".utf8))
        try write("timestamp", "year-zero", [0x30] + Array("0000-01-01T00:00:00.000-12:00".utf8))
    }

    /// Text a hostile code or file name may carry: escapes, bytes that are not UTF-8, a
    /// forged second line with a bidi override, C1 controls.
    static func displayTexts() throws {
        try write("display", "escapes", Array("evil\u{1B}[31mRED\u{1B}]0;title\u{07} end".utf8))
        try write("display", "not-utf8", [0xFF, 0xFE] + Array(".png".utf8))
        try write("display", "newline-bidi", Array("note\ntransfer approved \u{202E} gnp.exe".utf8))
        try write("display", "unicode-c1", Array("café 🔑 \u{9B}".utf8))
    }

    // MARK: detector

    static func detector() throws {
        let qr = try QREncoder(level: .medium).encode(.text("fuzz")).image(scale: 2, margin: 3)
        for effort in 0..<3 {
            try write("detector", "qr-effort-\(effort)", [UInt8(qr.width - 1), UInt8(effort)] + qr.pixels)
        }
        let inverted = GrayImage(width: qr.width, height: qr.height, pixels: qr.pixels.map { 255 - $0 })
        try write("detector", "qr-inverted", [UInt8(qr.width - 1), 1] + inverted.pixels)
        // An EAN-13 row: bars of one pixel, repeated down a few rows.
        let bars = "10100011010011001001001101111010100111010101000010100111001000010110011011001110100101"
        let row = [UInt8](repeating: 255, count: 10) + bars.map { $0 == "1" ? 0 : 255 } + [UInt8](repeating: 255, count: 10)
        try write("detector", "ean13-rows", [UInt8(row.count - 1), 1] + (0..<12).flatMap { _ in row })
        // The newer readers: Aztec symbols (straight, and a Rune turned 30°) for AztecReader,
        // and a soft, low-resolution EAN-13 and a blurred DataBar that ProfileReader reads
        // from their grey levels.
        for name in ["compact-upper", "rune-rot30"] {
            let aztec = try picture("Tests/Images/aztec/\(name).png")
            try write("detector", "aztec-\(name)", [UInt8(aztec.width - 1), 1] + aztec.pixels)
        }
        let ean = try picture("Tests/Images/linear/ean13-lowres.jpg").scaled(by: 0.9)!
        try write("detector", "ean13-lowres", [UInt8(ean.width - 1), 1] + ean.pixels)
        // A GS1 DataBar (zint's 0120358468019312) at a pixel a module, at `thorough`, where
        // the grey-profile reader and its DataBar decoder run whatever the engines read.
        let widths = [1, 1, 1, 3, 3, 1, 1, 1, 5, 1, 3, 5, 5, 1, 1, 1, 6, 1, 2, 1, 1, 1, 2, 2, 2, 3, 1, 3, 2, 1, 1, 1, 1,
                      6, 5, 2, 2, 1, 1, 2, 1, 3, 2, 4, 1, 1]
        let databar = [UInt8](repeating: 255, count: 12)
            + widths.enumerated().flatMap { [UInt8](repeating: $0.offset % 2 == 0 ? 255 : 0, count: $0.element) }
            + [UInt8](repeating: 255, count: 12)
        try write("detector", "databar-rows", [UInt8(databar.count - 1), 2] + (0..<16).flatMap { _ in databar })
        try detectorReaders()
    }

    /// Seeds for the readers that came after the first detector seeds, each checked to read
    /// at the balanced effort so that the fuzzer starts inside them: our Data Matrix reader
    /// (zint's symbols of Tests/Images/datamatrix: square, rectangular, small, turned), our
    /// MicroPDF417 reader (Tests/Images/micropdf417's small, 2 columns at 2 pixels a module),
    /// QR Code Model 1 (drawn by the tests' `Model1Symbol`, and the two symbols others made),
    /// the locator's curl surface (a curled version 7 code, `WarpedCode`, whose six
    /// alignment patterns away from the finders fit it), and our rMQR reader.
    static func detectorReaders() throws {
        var seeds: [(String, GrayImage)] = []
        for name in ["s10", "small", "macro05", "r8x18", "gs1", "ascii-latin1"] {
            seeds.append(("datamatrix-\(name)", try picture("Tests/Images/datamatrix/\(name).png")))
        }
        seeds.append(("datamatrix-rot30", try picture("Tests/Images/datamatrix/rot30.png").scaled(by: 0.66)!))
        seeds.append(("micropdf417-small", try picture("Tests/Images/micropdf417/small.png")))
        for name in ["version2-M", "version5-H-damaged"] {
            seeds.append(("model1-\(name)", try picture("Tests/Images/model1/\(name).png")))
        }
        for (version, degrees) in [(2, 17.0), (4, 0)] {
            let text = denseText(10 + 2 * version, seed: UInt64(version))
            let matrix = Model1Symbol.matrix([.bytes(Array(text.utf8))], version: version, level: .medium, mask: version % 8)!
            seeds.append(("model1-drawn-v\(version)", Model1Symbol.image(matrix, pixelsPerModule: 3, quiet: 2, degrees: degrees)))
        }
        let curled = try QREncoder(level: .low, minVersion: 7).encode(.text(denseText(7 * 20, seed: 7)))
        let (photo, _) = WarpedCode(matrix: curled, pixelsPerModule: 2.6, bow: 1, wave: 0.3, edge: 1.5, tilt: 0.03, seed: 7).image()
        let inset = (photo.width - 128) / 2
        seeds.append(("qr-curled-v7", photo.cropped(x: inset, y: inset, width: 128, height: 128)!))
        var detector = Detector(effort: .balanced)
        detector.timeBudget = .cpu(.seconds(60))
        // zxing-cpp's two small rMQR samples (Tests/Images/rmqr), at the balanced effort (the
        // second byte), where our rMQR reader runs on padded and enlarged crops.
        for (name, file) in [("rmqr-R7x43-H", "R7x43-H"), ("rmqr-R7x43-H-inverted", "R7x43-H_inverted")] {
            let image = try picture("Tests/Images/rmqr/\(file).png")
            print("seed detector/\(name) \(image.width)x\(image.height): \(detector.detect(in: image).map { "\($0.symbology)" })")
            try write("detector", name, [UInt8(image.width - 1), 2] + image.pixels)
        }
        for (name, image) in seeds {
            precondition(image.width <= 128 && image.height <= 128, "\(name) is \(image.width)x\(image.height)")
            let read = detector.detect(in: image).map { "\($0.symbology)\($0.model.map { " model \($0)" } ?? "")" }
            let located = QRLocator(image: image).read().isEmpty ? "" : " (our locator reads it)"
            print("seed detector/\(name) \(image.width)x\(image.height): \(read.isEmpty ? "nothing read" : read.joined(separator: ", "))\(located)")
            try write("detector", name, [UInt8(image.width - 1), 1] + image.pixels)
        }
    }

    /// A test image of the package, read from its root (where `Fuzz/build.sh --seeds` runs).
    static func picture(_ path: String) throws -> GrayImage {
        try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    // MARK: text

    /// Recognised text with every kind in it (first byte even), and crops of the rendered
    /// test pages, straight and turned (first byte odd, then width and turn).
    static func text() throws {
        let samples = [
            "Due 1 December 2026 at 14:30\n10 Downing Street, London SW1A 2AA",
            "2026-12-01T14:30:00+01:00 and 12/01/2026, Tuesday, Dec 1st 2026 7:15pm",
            "Springfield, IL 62704-1234\nOttawa ON K1A 0B1",
            "Visit https://example.org/a, mail bob@example.net, call +44 20 7946 0958.",
            "QRSEAL1:\n\n02239 98479 34129\n83600 8901\n\n12345",
        ]
        for (index, text) in samples.enumerated() { try write("text", "text-\(index)", [0] + Array(text.utf8)) }
        for name in ["small", "dates"] {
            let page = try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: "Tests/Images/text/\(name).png"))))
            guard let crop = page.cropped(x: 0, y: 0, width: min(128, page.width), height: min(128, page.height)) else { continue }
            for (turn, label) in [(127, "level"), (160, "turned")] {
                try write("text", "\(name)-\(label)", [1, UInt8(crop.width - 1), UInt8(turn)] + crop.pixels)
            }
            // Laid on wider ground: read in rectangles.
            try write("text", "\(name)-ground", [3, UInt8(crop.width - 1), 127] + crop.pixels)
        }
    }
}
