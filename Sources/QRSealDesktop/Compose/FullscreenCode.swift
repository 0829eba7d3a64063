import QRSealKit

/// The code full screen, as large as the screen allows on white, for a camera on the other
/// side; a message in parts cycles through them at the chosen rate (as `qrseal encode
/// --animate` does on a terminal). Escape closes it.
final class FullscreenCode {
    private var window: FullscreenWindow?
    private let area: DrawingArea
    private let symbols: [EncodedSymbol]
    private var index = 0
    private var timer: UInt32?

    init(parent: Widget, message: EncodedMessage, fps: Double, closed: @escaping () -> Void) {
        symbols = message.symbols
        let box = Drawing()
        area = DrawingArea { painter in box.draw?(painter) }
        area.expandsHorizontally = true
        area.expandsVertically = true
        area.accessibleName = symbols.count > 1 ? "Code full screen, parts cycling" : "Code full screen"
        box.draw = { [unowned self] painter in self.draw(painter) }
        window = FullscreenWindow(parent: parent, title: "qrseal code", child: area) { [weak self] in
            self?.stop()
            closed()
        }
        if symbols.count > 1 {
            timer = MainLoop.every(milliseconds: max(20, Int(1000 / fps))) { [weak self] in
                guard let self else { return false }
                self.index = (self.index + 1) % self.symbols.count
                self.area.queueDraw()
                return true
            }
        }
    }

    deinit { stop() }

    func present() { window?.present() }

    func close() { window?.close() }

    private func stop() {
        if let timer { MainLoop.cancel(timer) }
        timer = nil
    }

    /// White everywhere, the code centred with whole device pixels a module and its quiet
    /// zone; a part's label under it when there is room.
    private func draw(_ painter: Painter) {
        painter.color(1, 1, 1)
        painter.rectangle(x: 0, y: 0, width: painter.width, height: painter.height, fill: true)
        guard index < symbols.count else { return }
        let matrix = symbols[index].matrix
        let label = symbols.count > 1 ? symbols[index].label : nil
        let strip = label == nil ? 0.0 : 40.0
        let modules = Double(matrix.size + 2 * CodePixels.margin)
        let module = max(1, (min(painter.width, painter.height - strip) / modules).rounded(.down))
        let side = module * modules
        let x0 = ((painter.width - side) / 2).rounded(.down) + module * Double(CodePixels.margin)
        let y0 = ((painter.height - strip - side) / 2).rounded(.down) + module * Double(CodePixels.margin)
        painter.color(0, 0, 0)
        for y in 0..<matrix.size {
            var x = 0
            while x < matrix.size {
                guard matrix[x, y] else { x += 1; continue }
                var run = 1
                while x + run < matrix.size && matrix[x + run, y] { run += 1 }
                painter.rectangle(x: x0 + Double(x) * module, y: y0 + Double(y) * module,
                                  width: Double(run) * module, height: module, fill: true)
                x += run
            }
        }
        if let label {
            painter.color(0.3, 0.3, 0.3)
            let (w, _) = painter.text(label, x: 0, y: 0, size: 20, measureOnly: true)
            painter.text(label, x: (painter.width - w) / 2, y: painter.height - strip + 8, size: 20)
        }
    }

    /// Lets the draw function reach the object made after it.
    private final class Drawing { var draw: ((Painter) -> Void)? }
}
