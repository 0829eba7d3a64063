/// Hand-made image file bytes for hostile-input tests.
public enum ImageBytes {
    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian32(UInt32(data.count)) + body + bigEndian32(crc32(body))
    }

    /// A PNG signature and a valid IHDR (8-bit grayscale) declaring `width` × `height`,
    /// followed by an empty IDAT and IEND: the header promises far more than the file holds.
    public static func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = bigEndian32(width) + bigEndian32(height) + [8, 0, 0, 0, 0]
        return signature + pngChunk("IHDR", ihdr) + pngChunk("IDAT", []) + pngChunk("IEND", [])
    }

    public static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
