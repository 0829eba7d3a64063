import FoundationEssentials
import Glibc
import QRSealKit

/// `encode --animate`: a message's symbols shown one after another, full-screen on the
/// terminal, for a camera to read (`qrseal scan --camera` on another machine).
///
/// The animation draws on the alternate screen with the cursor hidden, each frame in place:
/// the code in half blocks as large as the terminal allows, white on black whatever the
/// terminal's colours, its label, and a progress line. It runs `loops` times through the
/// symbols (0: until Ctrl-C or SIGTERM), then puts the terminal back as it was. The size is
/// asked again before each frame, so a resized window gets frames of its new size, and one
/// too small for the code a line saying so until it is large enough again.
struct TerminalAnimation {
    let message: EncodedMessage
    let fps: Double
    /// Times through the symbols; 0 for until stopped.
    let loops: Int
    let margin: Int
    let invert: Bool
    /// Whether to stop now: after Ctrl-C or SIGTERM (tests stop it otherwise).
    var shouldStop: () -> Bool = { StopSignals.signal != 0 }

    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    /// Bright white on black: light modules are the blocks.
    static let colours = "\u{1B}[97;40m"

    /// Modules per side of the largest symbol, quiet zone included.
    private var side: Int { message.symbols.map(\.matrix.size).max()! + 2 * margin }

    /// The largest whole number of terminal cells per module at which a frame, its label
    /// and its progress line fit `columns` × `rows`; 0 when not even one does.
    static func scale(side: Int, columns: Int, rows: Int) -> Int {
        var s = 0
        while side * (s + 1) <= columns && (side * (s + 1) + 1) / 2 + 2 <= rows { s += 1 }
        return s
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        guard Self.scale(side: side, columns: console.columns, rows: console.rows) > 0 else {
            throw CLIError(message: "the terminal is \(console.columns)x\(console.rows) characters, too small for "
                           + "a code of \(side) modules a side (\(side)x\((side + 1) / 2 + 2) needed)",
                           hints: ["enlarge the window or make its font smaller, or lower --margin",
                                   "--format gif -o NAME.gif writes the animation to a file"])
        }
        let count = message.symbols.count
        var size = (columns: console.columns, rows: console.rows)
        let mask = StopSignals.begin()
        defer { StopSignals.end(mask) }
        console.write(Data(Self.enter.utf8))
        defer { console.write(Data(Self.leave.utf8)) }
        let start = ContinuousClock.now
        let interval = Duration.seconds(1 / fps)
        var shown = 0
        // Each frame is drawn when it is shown: a thousand large codes would take hundreds of MB as text.
        while loops == 0 || shown < loops * count {
            let index = shown % count
            let loop = shown / count + 1
            let now = console.terminalSize()
            var drawn = now == size ? "" : "\u{1B}[2J"
            size = now
            let scale = Self.scale(side: side, columns: size.columns, rows: size.rows)
            if scale > 0 {
                drawn += frame(message.symbols[index], scale: scale, columns: size.columns, rows: size.rows)
            } else {
                let words = "enlarge the terminal: the code needs \(side)x\((side + 1) / 2 + 2), it is \(size.columns)x\(size.rows)"
                drawn += "\u{1B}[H" + wrapped(words, columns: size.columns).map { centred($0, columns: size.columns) + "\u{1B}[K\r\n" }
                    .joined()
            }
            console.write(Data((drawn + progress(index, loop: loop, columns: size.columns)).utf8))
            shown += 1
            if console.writeFailed { return .failure }
            guard wait(until: start + interval * shown) else { break }
        }
        return .success
    }

    /// Sleeps until `deadline` in short steps; false when a stop signal came first.
    private func wait(until deadline: ContinuousClock.Instant) -> Bool {
        while !shouldStop() {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return true }
            let ms = Int32(min(100, max(1, Double(left.components.seconds) * 1000
                                        + Double(left.components.attoseconds) / 1e15)))
            _ = poll(nil, 0, ms)
        }
        return false
    }

    /// A frame drawn from the top left corner: the code centred, then its label.
    private func frame(_ symbol: EncodedSymbol, scale: Int, columns: Int, rows: Int) -> String {
        let matrix = symbol.matrix
        let width = side * scale
        // The symbol with its quiet zone, each module `scale` cells wide and half-lines tall; a
        // symbol smaller than the largest sits in the middle of the same square.
        let offset = margin + (side - 2 * margin - matrix.size) / 2
        let modules = (0..<width * width).map { i in
            matrix[(i % width) / scale - offset, (i / width) / scale - offset]
        }
        let big = QRMatrix(size: width, version: matrix.version, level: matrix.level, modules: modules)
        let lines = big.terminalText(margin: 0, invert: invert).split(separator: "\n")
        let left = String(repeating: " ", count: max(0, (columns - width) / 2))
        let top = max(0, (rows - lines.count - 2) / 2)
        var text = "\u{1B}[H" + String(repeating: "\u{1B}[K\r\n", count: top)
        for line in lines { text += left + Self.colours + line + "\u{1B}[0m\u{1B}[K\r\n" }
        text += centred(symbol.label.map { DisplayText.escape($0) } ?? "", columns: columns) + "\u{1B}[K\r\n"
        return text
    }

    /// "part 3 of 12 · loop 2 · 5 fps · Ctrl-C to stop", and the rest of the screen cleared.
    private func progress(_ index: Int, loop: Int, columns: Int) -> String {
        let count = message.symbols.count
        var parts = ["part \(index + 1) of \(count)"]
        if loops != 1 { parts.append(loops == 0 ? "loop \(loop)" : "loop \(loop) of \(loops)") }
        parts.append(NumberText.brief(fps) + " fps")
        if loops == 0 { parts.append("Ctrl-C to stop") }
        return centred(parts.joined(separator: " · "), columns: columns) + "\u{1B}[K\u{1B}[J"
    }

    /// `text` in lines of at most `columns`, broken between words.
    private func wrapped(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > columns {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    /// `text` centred on a line of `columns`, cut to fit so that it never wraps.
    private func centred(_ text: String, columns: Int) -> String {
        String(repeating: " ", count: max(0, (columns - text.count) / 2)) + String(text.prefix(columns))
    }
}
