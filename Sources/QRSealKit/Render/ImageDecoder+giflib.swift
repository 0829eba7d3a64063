import CGIF

extension ImageDecoder {
    /// Decodes every frame of a GIF as a viewer shows it, each composited onto the frames
    /// before it (with their disposal modes) over white, transparency included, with giflib's
    /// sequential reader (`DGifOpen`, `DGifGetRecordType`, `DGifGetImageDesc`, `DGifGetLine`).
    ///
    /// Each frame's size is checked against the pixel limit before its rows are read; `take`
    /// returns false to stop early.
    func decodeGIFFrames(_ bytes: [UInt8], _ take: (GrayImage) throws(RasterError) -> Bool) throws(RasterError) {
        do { try SharedLibrary.gif.load() } catch { throw .library(format: "GIF", error) }
        let reader = GIFReader(bytes)
        defer { withExtendedLifetime(reader) {} }
        var error: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), gifRead, &error) else {
            throw Self.gifError(error)
        }
        defer { _ = DGifCloseFile(gif, nil) }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try checkSize(width: width, height: height)
        let screenColors = Self.colors(gif.pointee.SColorMap)
        var canvas = GrayImage(width: width, height: height, filledWith: 255)
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) != GIF_ERROR else { throw Self.gifError(gif.pointee.Error) }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) != GIF_ERROR else { throw Self.gifError(gif.pointee.Error) }
                let desc = gif.pointee.Image
                let frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
                try checkSize(width: frameWidth, height: frameHeight)
                let colors = desc.ColorMap != nil ? Self.colors(desc.ColorMap) : screenColors
                guard !colors.isEmpty else { throw .damaged(format: "GIF", reason: "no colour table") }
                let before = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
                var line = [GifPixelType](repeating: 0, count: frameWidth)
                let transparent = Int(control.TransparentColor)
                for row in Self.rowOrder(height: frameHeight, interlaced: desc.Interlace) {
                    guard DGifGetLine(gif, &line, Int32(frameWidth)) != GIF_ERROR else { throw Self.gifError(gif.pointee.Error) }
                    let y = Int(desc.Top) + row
                    guard y < height else { continue }
                    for x in 0..<frameWidth {
                        let cx = Int(desc.Left) + x, index = Int(line[x])
                        guard cx < width, index != transparent else { continue }
                        canvas.pixels[y * width + cx] = index < colors.count ? colors[index] : 0
                    }
                }
                guard try take(canvas) else { return }
                if let before { canvas = before }
                if control.DisposalMode == DISPOSE_BACKGROUND {
                    for y in Int(desc.Top)..<min(height, Int(desc.Top) + frameHeight) {
                        for x in Int(desc.Left)..<min(width, Int(desc.Left) + frameWidth) { canvas.pixels[y * width + x] = 255 }
                    }
                }
                control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) != GIF_ERROR else { throw Self.gifError(gif.pointee.Error) }
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                    _ = DGifExtensionToGCB(Int(block[0]), block + 1, &control)
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) != GIF_ERROR else { throw Self.gifError(gif.pointee.Error) }
                }
            case TERMINATE_RECORD_TYPE:
                return
            default:
                throw .damaged(format: "GIF", reason: "unknown record")
            }
        }
    }

    /// The gray of each colour of a GIF colour table (BT.601 luma).
    private static func colors(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt8] {
        guard let map, let entries = map.pointee.Colors, map.pointee.ColorCount > 0 else { return [] }
        return (0..<min(256, Int(map.pointee.ColorCount))).map { i in
            let c = entries[i]
            return luma(Int(c.Red), Int(c.Green), Int(c.Blue))
        }
    }

    /// The rows in the order the file stores them: in four passes when interlaced.
    private static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    /// giflib's error code as a `RasterError`; running out of data is "truncated".
    private static func gifError(_ code: Int32) -> RasterError {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            return .damaged(format: "GIF", reason: "truncated")
        }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return .damaged(format: "GIF", libraryMessage: message)
    }
}

/// The bytes giflib reads through `gifRead`.
private final class GIFReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// giflib's input function: copies up to `count` bytes; fewer at the end of the data.
private func gifRead(_ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?,
                     _ count: Int32) -> Int32 {
    guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
    let reader = Unmanaged<GIFReader>.fromOpaque(user).takeUnretainedValue()
    let n = min(Int(count), reader.bytes.count - reader.offset)
    guard n > 0 else { return 0 }
    reader.bytes.withUnsafeBufferPointer { source in
        buffer.update(from: source.baseAddress! + reader.offset, count: n)
    }
    reader.offset += n
    return Int32(n)
}
