import CBrotli

/// Brotli (RFC 7932) compression of message bodies, with a cap on what decompression yields.
enum Compression {
    /// The body compressed at quality 11 with a 2^22 window (BrotliEncoderCompressStream), or
    /// nil when the output would pass `limit` bytes: compression stops as soon as it does, so
    /// that a large input that cannot fit anyway costs a few blocks, not the whole of it.
    static func compress(_ data: [UInt8], text: Bool, limit: Int = .max) -> [UInt8]? {
        guard let encoder = BrotliEncoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliEncoderDestroyInstance(encoder) }
        guard BrotliEncoderSetParameter(encoder, BROTLI_PARAM_QUALITY, 11) == BROTLI_TRUE,
              BrotliEncoderSetParameter(encoder, BROTLI_PARAM_LGWIN, 22) == BROTLI_TRUE,
              BrotliEncoderSetParameter(encoder, BROTLI_PARAM_MODE,
                                        (text ? BROTLI_MODE_TEXT : BROTLI_MODE_GENERIC).rawValue) == BROTLI_TRUE,
              BrotliEncoderSetParameter(encoder, BROTLI_PARAM_SIZE_HINT, UInt32(min(data.count, 1 << 30))) == BROTLI_TRUE
        else { return nil }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return data.withUnsafeBufferPointer { input -> [UInt8]? in
            var nextIn = input.baseAddress
            var availableIn = input.count
            while true {
                // Feed at most 256 KiB at a time, so that output (and the check) comes per block.
                let step = min(availableIn, 256 * 1024)
                var stepIn = step
                let operation = stepIn == availableIn ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS
                var availableOut = chunk.count
                let ok = chunk.withUnsafeMutableBufferPointer { buffer in
                    var nextOut = buffer.baseAddress
                    return BrotliEncoderCompressStream(encoder, operation, &stepIn, &nextIn,
                                                       &availableOut, &nextOut, nil)
                }
                guard ok == BROTLI_TRUE else { return nil }
                availableIn -= step - stepIn
                let produced = chunk.count - availableOut
                guard output.count + produced <= limit else { return nil }
                output += chunk[..<produced]
                if BrotliEncoderIsFinished(encoder) == BROTLI_TRUE { return output }
            }
        }
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
