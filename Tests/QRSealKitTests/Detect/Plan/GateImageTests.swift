import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Codes that the cheaper-by-design passes (`PassPlan`, "Gates") must still read: codes
/// hidden among what those gates are there to reject quickly — busy textures full of
/// finder-like patterns and bar-like edges — and codes whose own patterns are weak.
@Suite("Detector: the plan's gates hide no code among textures")
struct GateImageTests {
    /// A busy texture: seeded blotches of every grey, edges running every way, and
    /// `finders` finder-like squares (dark, light, dark rings in 1:1:3:1:1) of random sizes.
    static func texture(width w: Int, height h: Int, finders: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix(seed: seed)
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { pixels[y * w + x] = UInt8(60 + Int(rng.unit() * 140)) }
        }
        // Blotches: rectangles of a flat grey, which give edges both ways.
        for _ in 0..<(w * h / 900) {
            let rw = 4 + Int(rng.unit() * 30), rh = 4 + Int(rng.unit() * 30)
            let x0 = Int(rng.unit() * Double(w - rw)), y0 = Int(rng.unit() * Double(h - rh))
            let grey = UInt8(rng.unit() * 255)
            for y in y0..<(y0 + rh) { for x in x0..<(x0 + rw) { pixels[y * w + x] = grey } }
        }
        for _ in 0..<finders {
            let module = 1 + Int(rng.unit() * 4), side = 7 * module
            let x0 = Int(rng.unit() * Double(w - side)), y0 = Int(rng.unit() * Double(h - side))
            for y in 0..<side {
                for x in 0..<side {
                    let ring = max(abs(x / module - 3), abs(y / module - 3))
                    pixels[(y0 + y) * w + x0 + x] = ring == 2 ? 235 : 20
                }
            }
        }
        return pixels
    }

    /// `code` pasted into `pixels` (a `w`-wide page) with its top-left corner at (`x`, `y`).
    static func paste(_ code: GrayImage, into pixels: inout [UInt8], width w: Int, x: Int, y: Int) {
        for row in 0..<code.height {
            for column in 0..<code.width { pixels[(y + row) * w + x + column] = code.pixels[row * code.width + column] }
        }
    }

    /// What the default effort reads in `code` pasted at (`x`, `y`) into a `w` × `h` texture.
    static func read(_ code: GrayImage, onTextureOf w: Int, _ h: Int, finders: Int, seed: UInt64,
                     at x: Int, _ y: Int) -> [String] {
        var page = texture(width: w, height: h, finders: finders, seed: seed)
        paste(code, into: &page, width: w, x: x, y: y)
        return Detector().detect(in: GrayImage(width: w, height: h, pixels: page)).compactMap(\.text)
    }

    /// A small EAN-13 (2 pixels per module, bars 50 pixels high), softened by a blur of one
    /// pixel, and its digits.
    static func smallEAN() throws -> (GrayImage, String) {
        let image = try ImageDecoder().decode([UInt8](try #require(Barcodes.ean13PGM("978080481663", module: 2, height: 50))))
        return (image.boxBlurred(radius: 1), "9780804816632")
    }

    @Test("a small EAN-13 in a corner of a busy texture is read")
    func linearInCorner() throws {
        let (code, expected) = try Self.smallEAN()
        let w = 640, h = 480
        var pixels = Self.texture(width: w, height: h, finders: 120, seed: 7)
        // In the bottom-right corner; its own quiet zone is its label.
        Self.paste(code, into: &pixels, width: w, x: w - code.width - 4, y: h - code.height - 4)
        let found = Detector().detect(in: GrayImage(width: w, height: h, pixels: pixels))
        #expect(found.compactMap(\.text) == [expected])
    }

    @Test("a QR code whose top-right finder has lost its top edge and is scratched through is read")
    func damagedFinder() throws {
        let matrix = try QREncoder().encode(.text("the finder of this code is damaged"))
        let scale = 4, margin = 4
        var code = matrix.image(scale: scale, margin: margin)
        // The top row of the top-right finder's outer ring painted light, and a light
        // scratch through its core: no column through its centre shows 1:1:3:1:1.
        let x0 = (margin + matrix.size - 7) * scale, y0 = margin * scale
        var pixels = code.pixels
        for y in y0..<(y0 + scale) {
            for x in x0..<(x0 + 7 * scale) { pixels[y * code.width + x] = 255 }
        }
        for y in (y0 + 3 * scale)..<(y0 + 3 * scale + 1) {
            for x in (x0 + 2 * scale)..<(x0 + 5 * scale) { pixels[y * code.width + x] = 255 }
        }
        code = GrayImage(width: code.width, height: code.height, pixels: pixels)
        #expect(Self.read(code, onTextureOf: 480, 400, finders: 60, seed: 11, at: 120, 80) == ["the finder of this code is damaged"])
    }

    @Test("a blurred QR code among hundreds of finder-like patterns is read")
    func blurredAmongFinders() throws {
        let matrix = try QREncoder().encode(.text("a blurred code among finder-like squares"))
        let code = matrix.image(scale: 3, margin: 4).boxBlurred(radius: 1)
        #expect(Self.read(code, onTextureOf: 640, 480, finders: 300, seed: 23, at: 250, 150)
                    == ["a blurred code among finder-like squares"])
    }

    @Test("two small codes on a 12-megapixel page of texture are both read")
    func codesOnLargePage() throws {
        let (ean, expected) = try Self.smallEAN()
        let qr = try QREncoder().encode(.text("one code on a large page")).image(scale: 4, margin: 4)
        let w = 4000, h = 3000
        var page = Self.texture(width: w, height: h, finders: 400, seed: 31)
        Self.paste(qr, into: &page, width: w, x: 3100, y: 2300)
        Self.paste(ean, into: &page, width: w, x: 600, y: 400)
        let image = GrayImage(width: w, height: h, pixels: page)
        #expect(image.width * image.height > PassPlan.pyramidAbove)
        let (found, stages) = PlanGateTests.detect(image)
        #expect(Set(found.compactMap(\.text)) == [expected, "one code on a large page"])
        // Bars no code read explains keep zbar's linear scan over every pixel in the plan.
        #expect(stages.contains("zbar(linear) []"), "\(stages)")
    }

    @Test("a 4.4-megapixel page of QR codes that the regions read whole leaves zbar's linear scan out")
    func readPageSkipsLinear() throws {
        let (image, expected) = try LargePhotoTests.sample("sheets/many-codes.png")
        let (found, stages) = PlanGateTests.detect(image)
        #expect(found.compactMap(\.text).sorted() == expected.sorted())
        #expect(!stages.contains("zbar(linear) []"), "\(stages)")
    }

    @Test("the grey-profile reader is left out only where an engine read the whole EAN/UPC symbol before it")
    func profilesGate() throws {
        // Upright: the quick search reads it whole, and nothing is left for the grey-profile
        // reader, which runs beside the plain searches behind a gate looked at before them.
        let (upright, expected) = try Self.smallEAN()
        let (found, stages) = PlanGateTests.detect(upright)
        #expect(found.compactMap(\.text) == [expected])
        #expect(!stages.contains { $0.hasPrefix("profiles") }, "\(stages)")
        // Blurred beyond what the engines read: the grey-profile reader runs and reads it.
        let (blurred, text) = try LargePhotoTests.sample("linear/ean13-blur.jpg")
        let (read, ran) = PlanGateTests.detect(blurred)
        #expect(read.compactMap(\.text) == text)
        #expect(ran.contains { $0.hasPrefix("profiles") })
    }

    @Test("a texture full of finder-like patterns and edges gives nothing, at every effort")
    func textureGivesNothing() {
        let w = 640, h = 480
        let image = GrayImage(width: w, height: h, pixels: Self.texture(width: w, height: h, finders: 300, seed: 5))
        for effort in Effort.allCases {
            #expect(Detector(effort: effort).detect(in: image).isEmpty, "\(effort)")
        }
    }

    @Test("with nothing read, zbar's scan of every pixel runs only on a picture where bars show")
    func linearScanWhereBarsShow() throws {
        // A photo of a mesh of dots: no bar region, and nothing for zbar to read line by line.
        let bare = try BarRegionsTests.image("nothing/zxing-photo-15.png")
        let (none, skipped) = PlanGateTests.detect(bare)
        #expect(none.isEmpty)
        #expect(!skipped.contains("zbar []"), "\(skipped)")
        // A photo of a textured surface whose strokes show as bars: zbar still looks.
        let (nothing, ran) = PlanGateTests.detect(try BarRegionsTests.image("nothing/zxing-photo-01.png"))
        #expect(nothing.isEmpty)
        #expect(ran.contains("zbar []"), "\(ran)")
    }

    @Test("our MicroPDF417 reader runs where bars show: a dense QR photo without a bar region is spared it")
    func microPDF417WhereBarsShow() throws {
        let (dense, text) = try LargePhotoTests.sample("dense/sealed-v20M.jpg")
        let (read, skipped) = PlanGateTests.detect(dense)
        #expect(read.compactMap(\.text) == text)
        #expect(BarRegions.find(in: dense, most: PassPlan.barRegionsLooked).isEmpty)
        #expect(!skipped.contains("microPDF417 []"), "\(skipped)")
        // Its rows are bars: a MicroPDF417 shows as a region, and the reader runs and reads it.
        let (symbol, expected) = try LargePhotoTests.sample("micropdf417/c1-text.png")
        let (found, ran) = PlanGateTests.detect(symbol)
        #expect(found.compactMap(\.text) == expected)
        #expect(ran.contains("microPDF417 []"), "\(ran)")
    }
}
