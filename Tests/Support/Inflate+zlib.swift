import CZlib

/// zlib decompression (RFC 1950) for test fixtures stored compressed, via inflate().
public enum Inflate {
    /// The bytes of a complete zlib stream, or nil when it is not one or inflates past `limit`.
    public static func zlib(_ input: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var input = input
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += buffer[..<(buffer.count - Int(stream.avail_out))]
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, output.count <= limit else { return nil }
            }
        }
    }
}
