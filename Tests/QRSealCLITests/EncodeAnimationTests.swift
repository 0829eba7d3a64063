import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
@testable import QRSealKit

/// `encode --animate`: the bytes a terminal receives, checked as a terminal would take them.
@Suite("encode: --animate on the terminal")
struct EncodeAnimationTests {
    /// A console that stands for a terminal of `columns` × `rows`, its output captured.
    func terminal(_ columns: Int, _ rows: Int) -> (Console, Buffer) {
        let out = Buffer()
        let console = Console(out: { out.data.append($0) }, err: { _ in }, readInput: { Data() },
                              inputIsTerminal: true, outputIsTerminal: true, columns: columns, rows: rows)
        return (console, out)
    }

    func message(_ count: Int) throws -> EncodedMessage {
        let symbols = try (1...count).map { i in
            EncodedSymbol(matrix: try QREncoder().encode(.text("part-\(i)")), label: "AB12 · part \(i) of \(count)")
        }
        return EncodedMessage(symbols: symbols, dataParts: count, totalBytes: 10, sha256: [], id: "AB12")
    }

    @Test("each code is drawn in place on the alternate screen with its label and progress, then the terminal is put back")
    func frames() throws {
        let (console, out) = terminal(80, 40)
        let animation = TerminalAnimation(message: try message(3), fps: 50, loops: 2, margin: 2, invert: false)
        #expect(try animation.run(console: console) == .success)
        let text = String(decoding: out.data, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[?1049h\u{1B}[?25l"))
        #expect(text.hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"))
        #expect(text.components(separatedBy: "\u{1B}[H").count - 1 == 6, "two loops of three frames, each from home")
        for i in 1...3 {
            #expect(text.contains("AB12 · part \(i) of 3"))
            #expect(text.contains("part \(i) of 3 · loop 2 of 2 · 50 fps"))
        }
        #expect(!text.contains("part 4 of 3"))
        // 21 + 4 modules a side fit 80 x 40 three cells to a module: 75 columns, 38 lines.
        let frame = text.components(separatedBy: "\u{1B}[H")[1]
        let codeLines = frame.components(separatedBy: "\r\n").filter { $0.contains(TerminalAnimation.colours) }
        #expect(codeLines.count == (25 * 3 + 1) / 2, "\(codeLines.count)")
    }

    @Test("a frame is the code, module for module, in half blocks white on black")
    func frameModules() throws {
        let (console, out) = terminal(40, 30)
        let message = try message(2)
        _ = try TerminalAnimation(message: message, fps: 50, loops: 1, margin: 1, invert: false).run(console: console)
        let frame = String(decoding: out.data, as: UTF8.self).components(separatedBy: "\u{1B}[H")[1]
        let rows = frame.components(separatedBy: "\r\n").filter { $0.contains(TerminalAnimation.colours) }.map {
            Array($0.components(separatedBy: TerminalAnimation.colours)[1].components(separatedBy: "\u{1B}[0m")[0])
        }
        let matrix = message.symbols[0].matrix, side = matrix.size + 2
        #expect(rows.count == (side + 1) / 2 && rows.allSatisfy { $0.count == side })
        for y in 0..<side {
            for x in 0..<side {
                let cell = rows[y / 2][x]
                let light = y % 2 == 0 ? "█▀".contains(cell) : "█▄".contains(cell)
                #expect(light == !matrix[x - 1, y - 1], "module \(x),\(y)")
            }
        }
    }

    @Test("stopped (Ctrl-C or SIGTERM), it puts the terminal back all the same")
    func stopped() throws {
        let (console, out) = terminal(80, 40)
        var animation = TerminalAnimation(message: try message(3), fps: 1, loops: 0, margin: 2, invert: false)
        animation.shouldStop = { true }
        #expect(try animation.run(console: console) == .success)
        let text = String(decoding: out.data, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}[H").count - 1 == 1)
        #expect(text.contains("part 1 of 3 · loop 1 · 1 fps · Ctrl-C to stop"))
        #expect(text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test("a resized terminal gets frames of its new size, and a line asking for more room while it is too small")
    func resized() throws {
        let out = Buffer()
        let sizes = Buffer()
        let console = Console(out: { out.data.append($0) }, err: { _ in }, readInput: { Data() },
                              inputIsTerminal: true, outputIsTerminal: true, columns: 80, rows: 40,
                              terminalSize: {
                                  // 80 x 40, then 20 x 10, then 40 x 30: one frame each.
                                  sizes.data.append(0)
                                  return [(80, 40), (20, 10), (40, 30)][min(2, sizes.data.count - 1)]
                              })
        _ = try TerminalAnimation(message: try message(3), fps: 50, loops: 1, margin: 2, invert: false).run(console: console)
        let frames = String(decoding: out.data, as: UTF8.self).components(separatedBy: "\u{1B}[H").dropFirst().map {
            $0.components(separatedBy: "\r\n").filter { $0.contains(TerminalAnimation.colours) }
        }
        #expect(frames.count == 3)
        #expect(frames[0].count == (25 * 3 + 1) / 2 && frames[2].count == 13, "\(frames.map(\.count))")
        let text = String(decoding: out.data, as: UTF8.self)
        let words = ["enlarge the", "terminal: the code", "needs 25x15, it is", "20x10"]
        #expect(words.allSatisfy { text.contains($0 + "\u{1B}[K\r\n") }, "lines of at most 20 columns")
        #expect(text.components(separatedBy: "\u{1B}[2J").count - 1 == 3, "entering, and at each of two changes")
    }

    @Test("a terminal too small for the code is refused before the screen is touched")
    func tooSmall() throws {
        let (console, out) = terminal(20, 10)
        let animation = TerminalAnimation(message: try message(2), fps: 5, loops: 1, margin: 4, invert: false)
        #expect(throws: CLIError.self) { try animation.run(console: console) }
        #expect(out.data.isEmpty)
    }

    @Test("--animate of one code shows it as is; to a pipe, or with options of other formats, it is refused")
    func commandLine() throws {
        let one = qrseal(["encode", "--animate", "hi"], terminal: true)
        #expect(one.status == 0 && one.stderr.contains("the message fits one code: nothing to animate"))
        #expect(one.out == qrseal(["encode", "--format", "terminal", "hi"], terminal: true).out)
        let pipe = qrseal(["encode", "--animate", "hi"])
        #expect(pipe.status == 64 && pipe.stderr.contains("--animate draws on a terminal, and standard output is not one"))
        #expect(pipe.stderr.contains("hint: --format gif -o NAME.gif"))
        let svg = qrseal(["encode", "--animate", "--format", "svg", "hi"], terminal: true)
        #expect(svg.status == 64 && svg.stderr.contains("--animate shows the codes as terminal text, not as svg"))
        let loop = qrseal(["encode", "--loop", "2", "-o", "/dev/null", "hi"])
        #expect(loop.status == 64 && loop.stderr.contains("--loop applies to --animate"))
        let fps = qrseal(["encode", "--animate", "--fps", "99", "hi"], terminal: true)
        #expect(fps.status == 64 && fps.stderr.contains("--fps must be"))
    }
}
