import Testing
import TestSupport
@testable import QRSealKit

@Suite("Raster: hostile input to ImageDecoder")
struct RasterHostileInputTests {
    @Test("an empty file is reported as empty")
    func empty() {
        #expect(throws: RasterError.empty) { try ImageDecoder().decode([]) }
    }

    @Test("bytes of no known format are reported as not an image",
          arguments: [Array("hello, world".utf8), [0x89, 0x50, 0x4E, 0x47], [0xFF, 0xD8], Array("P".utf8),
                      Array("GIF8".utf8), Array("RIFF".utf8), [0x00]])
    func wrongMagic(_ bytes: [UInt8]) {
        #expect(throws: RasterError.unknownFormat) { try ImageDecoder().decode(bytes) }
    }

    @Test("random bytes are refused with a clear error, never a crash", arguments: 1...16)
    func randomBytes(seed: Int) {
        let noise = pseudoRandomBytes(count: 512, seed: UInt64(seed) &* 104_729)
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for bytes in [noise, pngSignature + noise, [0xFF, 0xD8, 0xFF] + noise,
                      Array("P5 ".utf8) + noise, Array("P3\n".utf8) + noise,
                      Array("P4 ".utf8) + noise, Array("P1\n".utf8) + noise] {
            let format = ImageDecoder.sniff(bytes)?.rawValue
            #expect {
                try ImageDecoder().decode(bytes)
            } throws: { error in
                switch error as? RasterError {
                case .unknownFormat?: return format == nil
                case .damaged(let found, _)?, .unsupported(let found, _)?: return found == format
                case .tooLarge?, .badDimensions?: return format != nil
                default: return false
                }
            }
        }
    }

    @Test("every error reads as a lowercase sentence fragment without a final period")
    func descriptions() throws {
        let errors: [RasterError] = [
            try caught([]),
            try caught(Array("GIF89a".utf8)),
            try caught(Array("II*\u{0}".utf8)),
            try caught(ImageBytes.pngDeclaring(width: 100_000, height: 100_000)),
            try caught(Array("P5\n0 1\n255\n".utf8)),
            try caught(Array("P5\n1 1\n0\n".utf8)),
        ]
        for error in errors {
            let text = error.description
            #expect(text.first?.isLowercase == true && text.last != ".", "\(text)")
        }
        #expect(errors[3].description
                == "image is 100000x100000 (10000 megapixels), above the limit of 100 megapixels")
    }

    /// The error decoding `bytes` throws; fails the test if it decodes.
    private func caught(_ bytes: [UInt8]) throws -> RasterError {
        do {
            _ = try ImageDecoder().decode(bytes)
        } catch {
            return error
        }
        throw Unexpected()
    }

    private struct Unexpected: Error {}
}
