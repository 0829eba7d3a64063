import Testing
@testable import QRSealKit

@Suite("QR capacity")
struct CapacityTests {
    @Test("the capacity table agrees with libqrencode at every version and level",
          arguments: ErrorCorrection.allCases)
    func tableMatchesLibrary(level: ErrorCorrection) throws {
        for version in QRCapacity.versions {
            let n = QRCapacity.byteCapacity(version: version, level: level)
            let encoder = QREncoder(level: level, minVersion: version)
            let full = try encoder.encode(.binary([UInt8](repeating: 0xA5, count: n)))
            #expect(full.version == version, "\(n) bytes should fill version \(version)-\(level.rawValue)")
            if version < 40 {
                let over = try encoder.encode(.binary([UInt8](repeating: 0xA5, count: n + 1)))
                #expect(over.version == version + 1)
            }
        }
    }

    @Test("binary at the exact boundary: the largest input fits, one byte more is refused")
    func binaryBoundary() throws {
        let expected: [ErrorCorrection: Int] = [.low: 2953, .medium: 2331, .quartile: 1663, .high: 1273]
        for (level, max) in expected {
            let encoder = QREncoder(level: level)
            let matrix = try encoder.encode(.binary([UInt8](repeating: 0, count: max)))
            #expect(matrix.version == 40)
            #expect(throws: SymbolError.tooLarge(size: max + 1, fits: max, level: level)) {
                try encoder.encode(.binary([UInt8](repeating: 0, count: max + 1)))
            }
        }
    }

    @Test("digits use numeric mode up to its exact boundary")
    func numericBoundary() throws {
        let encoder = QREncoder(level: .medium)
        let digits = String(repeating: "7", count: 5596)
        #expect(try encoder.encode(.text(digits)).version == 40)
        #expect(throws: SymbolError.tooLarge(size: 5597, fits: 5596, level: .medium)) {
            try encoder.encode(.text(digits + "7"))
        }
    }

    @Test("an impossible minimum version is refused")
    func badVersion() {
        #expect(throws: SymbolError.badVersion(41)) {
            try QREncoder(minVersion: 41).encode(.text("x"))
        }
    }

    @Test("a minimum version is honoured")
    func minVersion() throws {
        #expect(try QREncoder(minVersion: 7).encode(.text("hi")).version == 7)
        #expect(try QREncoder(minVersion: 1).encode(.text("hi")).version == 1)
    }
}
