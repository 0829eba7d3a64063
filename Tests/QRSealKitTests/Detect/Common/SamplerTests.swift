import Testing
@testable import QRSealKit

/// The one sampler of our readers, under both pixel-centre conventions.
@Suite("Detect: sampling between pixels")
struct SamplerTests {
    /// 3 × 2 pixels: 0 10 20 / 100 110 120.
    let image = GrayImage(width: 3, height: 2, pixels: [0, 10, 20, 100, 110, 120])

    @Test("a pixel's own centre gives its level, under either convention")
    func centres() {
        #expect(image.bilinear(1, 0, centres: .whole, outside: .edge) == 10)
        #expect(image.bilinear(1.5, 0.5, centres: .halfway, outside: .paper) == 10)
        #expect(image.bilinear(0.5, 0.5, centres: .whole, outside: .edge) == 55)
        #expect(image.bilinear(1, 1, centres: .halfway, outside: .paper) == 55)
    }

    @Test("off the image, paper is light and an edge continues")
    func outside() {
        #expect(image.bilinear(-3, 0, centres: .whole, outside: .edge) == 0)
        #expect(image.bilinear(9, 9, centres: .whole, outside: .edge) == 120)
        #expect(image.bilinear(0.25, 1, centres: .halfway, outside: .paper) == 255)
        #expect(image.bilinear(2.5, 1, centres: .halfway, outside: .paper) == 255, "the last centre is outside")
        #expect(image.bilinear(.nan, 1, centres: .halfway, outside: .paper) == 255)
    }
}
