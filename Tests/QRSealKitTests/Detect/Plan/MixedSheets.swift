import Foundation
import TestSupport
@testable import QRSealKit

/// Pictures of codes of several kinds, drawn at test time: each code by zint, laid out on a
/// white page here, then, for a "photographed" picture, tilted in perspective, blurred,
/// given sensor noise and saved as JPEG by ImageMagick (zint and `convert` are peers that
/// `make setup` installs). Noise is seeded, so a picture is the same at every run.
enum MixedSheets {
    /// One code on a sheet: zint's name of its barcode type, the data given to zint, and
    /// the symbology and payload qrseal must report.
    struct Code: Sendable {
        let zint: String
        let data: String
        let symbology: Symbology
        let expected: String
        /// Extra zint options (a scale of its own, say).
        var options: [String] = []
    }

    /// How a picture is spoiled, as a phone camera spoils a sheet it photographs.
    struct Photo: Sendable {
        /// Pixels the corners move inwards, in a perspective that differs at each corner.
        var tilt = 30
        /// Gaussian blur, pixels (ImageMagick's sigma).
        var blur = 1.0
        /// ImageMagick's noise attenuation for Gaussian noise.
        var noise = 0.4
        /// JPEG quality.
        var quality = 75
    }

    /// Twelve kinds, one code each: every matrix symbology of the sheet and eight
    /// linear ones.
    static let twelveKinds: [Code] = [
        Code(zint: "QRCODE", data: "qrseal sheet", symbology: .qr, expected: "qrseal sheet"),
        Code(zint: "DATAMATRIX", data: "data matrix", symbology: .dataMatrix, expected: "data matrix"),
        Code(zint: "AZTEC", data: "aztec code", symbology: .aztec, expected: "aztec code"),
        Code(zint: "PDF417", data: "pdf417 code", symbology: .pdf417, expected: "pdf417 code"),
        Code(zint: "EANX", data: "590123412345", symbology: .ean13, expected: "5901234123457"),
        Code(zint: "EANX", data: "9638507", symbology: .ean8, expected: "96385074"),
        Code(zint: "UPCA", data: "03600029145", symbology: .upca, expected: "036000291452"),
        Code(zint: "CODE128", data: "Code 128 sheet", symbology: .code128, expected: "Code 128 sheet"),
        Code(zint: "CODE39", data: "CODE 39", symbology: .code39, expected: "CODE 39"),
        Code(zint: "CODABAR", data: "A40156B", symbology: .codabar, expected: "A40156B"),
        Code(zint: "C25INTER", data: "12345678", symbology: .i25, expected: "12345678"),
        Code(zint: "DBAR_OMN", data: "0950110153001", symbology: .databar, expected: "0109501101530010"),
    ]

    /// The new user's picture (issue 28): an EAN-13, a Code 39 and an I2/5, clean, on a page
    /// of 1100 × 900 pixels.
    static let threeLinear: [Code] = [
        Code(zint: "EANX", data: "590123412345", symbology: .ean13, expected: "5901234123457"),
        Code(zint: "CODE39", data: "CODE39 TEST", symbology: .code39, expected: "CODE39 TEST"),
        Code(zint: "C25INTER", data: "12345678", symbology: .i25, expected: "12345678"),
    ]

    /// Three QR codes of different texts, as on a clipboard: the quick search reads one.
    static let threeQR: [Code] = ["first code on the board", "second code, a longer text than the first",
                                  "https://example.org/third"].map {
        Code(zint: "QRCODE", data: $0, symbology: .qr, expected: $0, options: ["--scale=4"])
    }

    /// The codes drawn by zint at `scale` (zint's: 1 is two pixels a module) and laid out
    /// `columns` to a row in cells of the largest code's size plus a margin, on a page at
    /// least `width` × `height`; photographed as `photo` says, when given.
    static func picture(_ codes: [Code], columns: Int, scale: Double = 1.5, width: Int = 0, height: Int = 0,
                        photo: Photo? = nil) throws -> GrayImage {
        let dir = try TempDir()
        let drawn = try codes.enumerated().map { index, code -> GrayImage in
            let path = dir.path("code\(index).png")
            let result = try Tools.run("zint", ["-b", code.zint, "-d", code.data, "--scale=\(scale)"] + code.options
                                       + ["-o", path])
            guard result.status == 0 else { throw SheetError.tool("zint -b \(code.zint): \(result.stderr)") }
            return try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let margin = 40
        let cellWidth = (drawn.map(\.width).max() ?? 0) + margin, cellHeight = (drawn.map(\.height).max() ?? 0) + margin
        let rows = (drawn.count + columns - 1) / columns
        let pageWidth = max(width, columns * cellWidth + margin), pageHeight = max(height, rows * cellHeight + margin)
        var pixels = [UInt8](repeating: 255, count: pageWidth * pageHeight)
        // The cells spread evenly over the page.
        let gapX = (pageWidth - columns * cellWidth) / (columns + 1), gapY = (pageHeight - rows * cellHeight) / (rows + 1)
        for (index, code) in drawn.enumerated() {
            let column = index % columns, row = index / columns
            let x0 = gapX + column * (cellWidth + gapX) + margin / 2, y0 = gapY + row * (cellHeight + gapY) + margin / 2
            for y in 0..<code.height {
                for x in 0..<code.width { pixels[(y0 + y) * pageWidth + x0 + x] = code.pixels[y * code.width + x] }
            }
        }
        let page = GrayImage(width: pageWidth, height: pageHeight, pixels: pixels)
        guard let photo else { return page }
        let clean = try dir.write("page.png", Data(try PNGEncoder.encode(page)))
        let w = pageWidth - 1, h = pageHeight - 1, t = photo.tilt
        let corners = "0,0 \(t),\(t / 2)  \(w),0 \(w - t / 2),\(t)  \(w),\(h) \(w - t),\(h - t / 3)  0,\(h) \(t / 3),\(h - t)"
        let out = dir.path("photo.jpg")
        let result = try Tools.run("convert", [clean, "-seed", "28", "-virtual-pixel", "white",
                                               "-distort", "Perspective", corners, "-blur", "0x\(photo.blur)",
                                               "-attenuate", "\(photo.noise)", "+noise", "Gaussian",
                                               "-colorspace", "Gray", "-quality", "\(photo.quality)", out])
        guard result.status == 0 else { throw SheetError.tool("convert: \(result.stderr)") }
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    }

    /// `code` alone, drawn by zint at two pixels a module, enlarged `enlarge` times, blurred
    /// by `blur` pixels (Gaussian sigma), with a little noise and saved as JPEG at quality 70:
    /// a product code photographed out of focus.
    static func blurred(_ code: Code, enlarge: Int, blur: Double) throws -> GrayImage {
        let dir = try TempDir()
        let clean = dir.path("code.png"), out = dir.path("blurred.jpg")
        let drawn = try Tools.run("zint", ["-b", code.zint, "-d", code.data, "--scale=1", "-o", clean])
        guard drawn.status == 0 else { throw SheetError.tool("zint -b \(code.zint): \(drawn.stderr)") }
        let result = try Tools.run("convert", [clean, "-seed", "5", "-resize", "\(enlarge * 100)%", "-blur", "0x\(blur)",
                                               "-attenuate", "0.3", "+noise", "Gaussian", "-colorspace", "Gray",
                                               "-quality", "70", out])
        guard result.status == 0 else { throw SheetError.tool("convert: \(result.stderr)") }
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    }

    enum SheetError: Error, CustomStringConvertible {
        case tool(String)
        var description: String {
            if case .tool(let message) = self { return "\(message) (zint and ImageMagick come with `make setup`)" }
            return ""
        }
    }
}
