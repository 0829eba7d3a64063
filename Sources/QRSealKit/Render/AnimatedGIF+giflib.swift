import CGIF

/// An animated GIF of a message's symbols, one frame each, for showing on a screen to a
/// camera: two colours, looping forever, each symbol's label (if it has one) under it.
public enum AnimatedGIF {
    /// The widest frame written, in pixels.
    public static let maximumSide = 8192
    /// The most pixels of all frames together (a thousand codes of version 40 at 8 pixels a
    /// module are 2.2 billion), so that the GIF held in memory stays within a few hundred MB.
    public static let maximumPixels = 1 << 32
    /// Frame rates a GIF can show: its delays are whole hundredths of a second, and viewers
    /// show delays under 2/100 s as 1/10 s.
    public static let frameRates: ClosedRange<Double> = 0.1...50

    /// The GIF of `message`'s symbols at `fps` frames per second, each drawn as
    /// `QRMatrix.image(scale:margin:invert:)` draws it, centred on a frame as large as the
    /// largest, its label in a strip below, with giflib's sequential writer (`EGifOpen`, `EGifPutImageDesc`,
    /// `EGifPutLine`) and a NETSCAPE2.0 block that loops it forever.
    public static func encode(_ message: EncodedMessage, scale: Int, margin: Int, fps: Double,
                              invert: Bool = false) throws(RenderError) -> [UInt8] {
        guard !message.symbols.isEmpty else { throw .noSymbols }
        guard message.symbols.count <= Sheet.maximumSymbols else {
            throw .tooManySymbols(count: message.symbols.count, limit: Sheet.maximumSymbols)
        }
        guard fps.isFinite, frameRates.contains(fps) else { throw .frameRate(fps) }
        let side = (message.symbols.map(\.matrix.size).max()! + 2 * margin) * scale
        guard side <= maximumSide else { throw .frameTooLarge(side: side, limit: maximumSide) }
        // A strip for the labels, as tall as five modules, within 12 to 40 pixels.
        let strip = message.symbols.contains { $0.label != nil } ? min(40, max(12, 5 * scale)) : 0
        let height = side + strip
        let pixels = side * height * message.symbols.count
        guard pixels <= maximumPixels else { throw .animationTooLarge(pixels: pixels, limit: maximumPixels) }
        let delay = max(2, Int((100 / fps).rounded()))
        try load(.gif)

        let writer = GIFWriter()
        try writer.open(width: side, height: height)
        defer { writer.close() }
        try writer.loopForever()
        let ground: UInt8 = invert ? 0 : 1
        var frame = [UInt8](repeating: ground, count: side * height)
        for symbol in message.symbols {
            let image = symbol.matrix.image(scale: scale, margin: margin, invert: invert)
            // A smaller symbol than the last leaves none of it showing around its own.
            if image.width < side { frame.withUnsafeMutableBufferPointer { $0.update(repeating: ground) } }
            let offset = (side - image.width) / 2
            for y in 0..<image.height {
                let row = (offset + y) * side + offset
                for x in 0..<image.width { frame[row + x] = image.pixels[y * image.width + x] >= 128 ? 1 : 0 }
            }
            if strip > 0 {
                let label = try TextStrip.image(symbol.label.map { DisplayText.escape($0) } ?? "", width: side, height: strip)
                for i in 0..<label.pixels.count { frame[side * side + i] = (label.pixels[i] >= 128) != invert ? 1 : 0 }
            }
            try writer.put(frame, width: side, height: height, delay: delay)
        }
        try writer.finish()
        return writer.bytes
    }
}

/// Owns one giflib file handle writing into memory, and the bytes written.
private final class GIFWriter {
    var bytes: [UInt8] = []
    private var gif: UnsafeMutablePointer<GifFileType>?

    func open(width: Int, height: Int) throws(RenderError) {
        var error: Int32 = 0
        gif = EGifOpen(Unmanaged.passUnretained(self).toOpaque(), { gif, data, length in
            guard let gif, let user = gif.pointee.UserData, let data, length >= 0 else { return 0 }
            let writer = Unmanaged<GIFWriter>.fromOpaque(user).takeUnretainedValue()
            writer.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return length
        }, &error)
        guard let gif else { throw .gif(reason: Self.reason(error)) }
        EGifSetGifVersion(gif, true)
        // Index 0 black, 1 white; giflib copies the map.
        var colours = [GifColorType(Red: 0, Green: 0, Blue: 0), GifColorType(Red: 255, Green: 255, Blue: 255)]
        guard let map = GifMakeMapObject(2, &colours) else { throw .gif(reason: "out of memory") }
        defer { GifFreeMapObject(map) }
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 1, 1, map))
    }

    /// The NETSCAPE2.0 application block: loop count 0, forever.
    func loopForever() throws(RenderError) {
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
        var name = Array("NETSCAPE2.0".utf8)
        try check(EGifPutExtensionBlock(gif, 11, &name))
        var loop: [UInt8] = [1, 0, 0]
        try check(EGifPutExtensionBlock(gif, 3, &loop))
        try check(EGifPutExtensionTrailer(gif))
    }

    /// One frame of `width` × `height` palette indices shown for `delay` hundredths of a second.
    func put(_ frame: [UInt8], width: Int, height: Int, delay: Int) throws(RenderError) {
        var control = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                           DelayTime: Int32(delay), TransparentColor: NO_TRANSPARENT_COLOR)
        var block = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &block)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &block))
        try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, nil))
        var pixels = frame
        try check(EGifPutLine(gif, &pixels, Int32(pixels.count)))
    }

    /// Writes the trailer; the handle is gone afterwards, whatever the outcome.
    func finish() throws(RenderError) {
        guard let handle = gif else { return }
        gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(handle, &error) == GIF_OK else { throw .gif(reason: Self.reason(error)) }
    }

    /// Frees the handle if `finish` did not.
    func close() {
        guard let handle = gif else { return }
        gif = nil
        var error: Int32 = 0
        _ = EGifCloseFile(handle, &error)
    }

    private func check(_ result: Int32) throws(RenderError) {
        guard result != GIF_OK else { return }
        throw .gif(reason: Self.reason(gif?.pointee.Error ?? 0))
    }

    private static func reason(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0).lowercased() } ?? "giflib error \(code)"
    }
}
