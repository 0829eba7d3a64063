// YUV4MPEG2 streams (`YUV4MPEGReader`, `YUV4MPEGHeader.parse`): a stream is refused or read
// frame by frame, every frame the header's size, and never more frames than bytes allow; in
// colour (odd-sized inputs) every frame's chroma planes fit it and its RGB fills it.
@testable import QRSealKit

let limit = 1 << 16

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    if let line = input.split(separator: 0x0A, omittingEmptySubsequences: false).first,
       let header = try? YUV4MPEGHeader.parse(Array(line), maxPixels: limit) {
        require(header.width > 0 && header.height > 0 && header.width * header.height <= limit,
                "header \(header.width)x\(header.height)")
    }
    guard let reader = try? YUV4MPEGReader(input: MemoryInput(input), maxPixels: limit) else { return 0 }
    require(reader.width * reader.height <= limit, "stream \(reader.width)x\(reader.height) passes the limit")
    reader.keepsColor = size % 2 == 1
    var frames = 0
    while let frame = try? reader.nextFrame() {
        frames += 1
        require(frame.number == frames, "frame \(frame.number) read as number \(frames)")
        require(frame.image.width == reader.width && frame.image.height == reader.height, "frame size")
        require(frames * reader.header.frameBytes <= input.count, "more frames than the bytes hold")
        if let chroma = frame.chroma {
            require(chroma.width <= frame.image.width && chroma.height <= frame.image.height, "chroma larger than the frame")
            require(frame.rgb().count == 3 * frame.image.pixels.count, "RGB does not fill the frame")
        }
    }
    return 0
}
