import CBrotli

/// Brotli (RFC 7932) compression of message bodies, with a cap on what decompression yields.
enum Compression {
    /// The body compressed with BrotliEncoderCompress at quality 11 and a 2^22 window.
    static func compress(_ data: [UInt8], text: Bool) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(data.count)
        guard size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        let ok = BrotliEncoderCompress(11, 22, text ? BROTLI_MODE_TEXT : BROTLI_MODE_GENERIC,
                                       data.count, data, &size, &out)
        guard ok == BROTLI_TRUE else { return nil }
        return Array(out[..<size])
    }

    /// Decompresses a complete Brotli stream with BrotliDecoderDecompressStream, stopping as
    /// soon as the output would pass `limit` bytes.
    static func decompress(_ data: [UInt8], limit: Int) throws(SealError) -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else {
            throw .crypto("cannot create a Brotli decoder")
        }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return try data.withUnsafeBufferPointer { (input) throws(SealError) -> [UInt8] in
            var nextIn = input.baseAddress
            var availableIn = input.count
            while true {
                var availableOut = chunk.count
                let result = chunk.withUnsafeMutableBufferPointer { buffer in
                    var nextOut = buffer.baseAddress
                    return BrotliDecoderDecompressStream(decoder, &availableIn, &nextIn,
                                                         &availableOut, &nextOut, nil)
                }
                let produced = chunk.count - availableOut
                guard output.count + produced <= limit else { throw .contentTooLarge(limit: limit) }
                output += chunk[..<produced]
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    guard availableIn == 0 else { throw .malformed("bytes after the end of the compressed body") }
                    return output
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    throw .malformed("compressed body ends early")
                default:
                    throw .malformed("compressed body is not valid Brotli")
                }
            }
        }
    }
}
