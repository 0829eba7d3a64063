import Testing
@testable import QRSealKit

@Suite("Rendering")
struct RenderingTests {
    let matrix = try! QREncoder(level: .quartile).encode(.text("render me"))

    @Test("the PNG raster has the asked scale and quiet zone")
    func raster() {
        let image = matrix.image(scale: 3, margin: 2)
        #expect(image.width == (matrix.size + 4) * 3)
        // Quiet zone is white; the top-left finder's corner module is dark.
        #expect(image[0, 0] == 255 && image[5, 5] == 255)
        #expect(image[6, 6] == 0 && image[8, 8] == 0)
    }

    @Test("terminal text decodes back to the same modules, quiet zone included")
    func terminal() {
        let margin = 4
        let lines = matrix.terminalText(margin: margin).split(separator: "\n").map { Array($0) }
        let side = matrix.size + 2 * margin
        #expect(lines.count == (side + 1) / 2)
        for y in 0..<side {
            for x in 0..<side {
                let cell = lines[y / 2][x]
                let light = y % 2 == 0 ? (cell == "█" || cell == "▀") : (cell == "█" || cell == "▄")
                #expect(light == !matrix[x - margin, y - margin], "module \(x),\(y)")
            }
        }
    }

    @Test("inverted, the raster and terminal text swap dark and light module for module")
    func inverted() {
        let plain = matrix.image(scale: 2, margin: 1), inverted = matrix.image(scale: 2, margin: 1, invert: true)
        #expect(inverted.pixels == plain.pixels.map { 255 - $0 })
        // The last line's lower half lies below the code (a side is odd) and stays blank.
        let swap: [Character: Character] = ["█": " ", " ": "█", "▀": "▄", "▄": "▀"]
        let swapLast: [Character: Character] = ["▀": " ", " ": "▀"]
        let plainLines = matrix.terminalText(margin: 2).split(separator: "\n")
        let swapped = plainLines.dropLast().map { String($0.map { swap[$0]! }) }
            + [String(plainLines.last!.map { swapLast[$0]! })]
        #expect(swapped == matrix.terminalText(margin: 2, invert: true).split(separator: "\n").map(String.init))
    }

    @Test("ANSI text is two spaces a module on black or white, one line a row, the same modules",
          arguments: [false, true])
    func ansi(invert: Bool) {
        let margin = 2, side = matrix.size + 2 * margin
        let lines = matrix.ansiText(margin: margin, invert: invert).split(separator: "\n")
        #expect(lines.count == side)
        for (y, line) in lines.enumerated() {
            #expect(line.hasSuffix(QRMatrix.ansiReset))
            var x = 0
            var dark = false
            var rest = Substring(line.dropLast(QRMatrix.ansiReset.count))
            while !rest.isEmpty {
                if rest.hasPrefix(QRMatrix.ansiBlack) { dark = true; rest = rest.dropFirst(QRMatrix.ansiBlack.count) }
                if rest.hasPrefix(QRMatrix.ansiWhite) { dark = false; rest = rest.dropFirst(QRMatrix.ansiWhite.count) }
                #expect(rest.hasPrefix("  "))
                rest = rest.dropFirst(2)
                #expect(dark == (matrix[x - margin, y - margin] != invert), "module \(x),\(y)")
                x += 1
            }
            #expect(x == side)
        }
    }

    @Test("SVG runs cover exactly the dark modules")
    func svg() throws {
        let svg = matrix.svg(scale: 5, margin: 4)
        #expect(svg.contains("viewBox=\"0 0 \(matrix.size + 8) \(matrix.size + 8)\""))
        let path = try #require(svg.split(separator: "d=\"").last?.split(separator: "\"").first)
        var dark = Set<Int>()
        for run in path.split(separator: "M").map(String.init) {
            // Each run is "x yhWv1h-Wz".
            let parts = run.split(whereSeparator: { " hvz".contains($0) })
            let x = Int(parts[0])! - 4, y = Int(parts[1])! - 4, w = Int(parts[2])!
            for i in 0..<w { dark.insert(y * matrix.size + x + i) }
        }
        let expected = Set(matrix.modules.indices.filter { matrix.modules[$0] })
        #expect(dark == expected)
    }
}
