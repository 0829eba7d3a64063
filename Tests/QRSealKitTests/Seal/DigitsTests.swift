import Testing
@testable import QRSealKit

/// The canonical decimal form of an envelope (docs/FORMAT.md, section 4.1).
@Suite("Seal: digits")
struct DigitsTests {
    private func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("random bytes of every length 0…300 come back exactly, in D(n) digits")
    func roundTripRandom() throws {
        for n in 0...300 {
            let bytes = randomBytes(n)
            let digits = Digits.encode(bytes)
            #expect(digits.count == Digits.count(forBytes: n), "n = \(n)")
            #expect(digits.allSatisfy { (0x30...0x39).contains($0) }, "n = \(n)")
            #expect(try Digits.decode(digits) == bytes, "n = \(n), bytes = \(bytes)")
        }
    }

    @Test("leading zero bytes are kept: the digit count says how many bytes there were")
    func roundTripLeadingZeros() throws {
        for n in 1...300 {
            for zeros in Set([1, 2, 3, 4, 5, n / 2, n - 1, n]) where zeros >= 1 && zeros <= n {
                let bytes = [UInt8](repeating: 0, count: zeros) + randomBytes(n - zeros)
                let digits = Digits.encode(bytes)
                #expect(digits.count == Digits.count(forBytes: n), "n = \(n), zeros = \(zeros)")
                #expect(try Digits.decode(digits) == bytes, "n = \(n), zeros = \(zeros)")
            }
        }
    }

    @Test("the first values are the obvious ones")
    func smallValues() throws {
        #expect(Digits.encode([]) == [])
        #expect(Digits.encode([0]) == ascii("000"))
        #expect(Digits.encode([255]) == ascii("255"))
        #expect(Digits.encode([0, 1]) == ascii("00001"))
        #expect(Digits.encode([0xFF, 0xFF]) == ascii("65535"))
        #expect(Digits.encode([1, 0, 0]) == ascii("00065536"))
        #expect(try Digits.decode([]) == [])
        #expect(try Digits.decode(ascii("007")) == [7])
        #expect(try Digits.decode(ascii("65535")) == [0xFF, 0xFF])
    }

    @Test("D(n) is the digit count of 256^n − 1 for n = 1…3000 and grows by 2 or 3")
    func countMatchesPowersOf256() {
        // 256^n in base 10, least significant digit first; 256^n − 1 has as many digits
        // because 256^n is never a power of ten.
        var power: [UInt8] = [1]
        var previous = 0
        for n in 1...3000 {
            var carry = 0
            for i in power.indices {
                let value = Int(power[i]) * 256 + carry
                power[i] = UInt8(value % 10)
                carry = value / 10
            }
            while carry > 0 { power.append(UInt8(carry % 10)); carry /= 10 }
            let d = Digits.count(forBytes: n)
            #expect(d == power.count, "n = \(n)")
            #expect(d - previous == 2 || d - previous == 3, "n = \(n): D grew from \(previous) to \(d)")
            previous = d
        }
    }

    @Test("the all-0xFF envelope fills every digit, with no leading zero",
          arguments: Array(1...64) + [255, 256, 1000, 2935, 2949, 2953, 3000])
    func allOnesHasNoLeadingZero(n: Int) throws {
        let ones = [UInt8](repeating: 0xFF, count: n)
        let digits = Digits.encode(ones)
        #expect(digits.count == Digits.count(forBytes: n))
        #expect(digits.first != 0x30)
        if digits.count <= Digits.maxDigits {
            #expect(try Digits.decode(digits) == ones)
        } else {
            // More digits than one QR code holds are refused before the quadratic conversion.
            #expect(throws: SealError.badArmor("\(digits.count) digits, more than one QR code holds (7089)")) {
                try Digits.decode(digits)
            }
        }
    }

    @Test("a digit count belongs to at most one byte count, and byteCount inverts count")
    func byteCountInverts() {
        var owner: [Int: Int] = [:]
        for n in 0...3000 { owner[Digits.count(forBytes: n)] = n }
        for digits in 0...Digits.count(forBytes: 3000) {
            #expect(Digits.byteCount(forDigits: digits) == owner[digits], "\(digits) digits")
        }
    }

    @Test("a length that is no D(n) is refused", arguments: [1, 2, 4, 7, 9, 12, 7070])
    func impossibleLength(digits: Int) {
        #expect(throws: SealError.nonCanonicalDigits) {
            try Digits.decode([UInt8](repeating: 0x30, count: digits))
        }
    }

    @Test("a value of 256^n or more is refused", arguments: [
        "256", "999", "65536", "99999", "16777216", "99999999",
    ])
    func valueTooLarge(digits: String) {
        #expect(throws: SealError.nonCanonicalDigits) { try Digits.decode(Array(digits.utf8)) }
    }

    @Test("the largest value of each length is accepted, one more is refused")
    func valueBoundary() throws {
        for n in [1, 2, 3, 7, 31, 100] {
            let top = Digits.encode([UInt8](repeating: 0xFF, count: n))
            #expect(try Digits.decode(top) == [UInt8](repeating: 0xFF, count: n))
            // top + 1 = 256^n, same number of digits (256^n is no power of ten).
            var next = top
            var i = next.count - 1
            while next[i] == 0x39 { next[i] = 0x30; i -= 1 }
            next[i] += 1
            #expect(throws: SealError.nonCanonicalDigits, "n = \(n)") { try Digits.decode(next) }
        }
    }

    @Test("characters other than 0–9 are bad armor", arguments: [
        "12a", "1 2", "+12", "-12", "１２３", "25.", "\u{0}12", "12\n",
    ])
    func nonDigits(text: String) {
        #expect {
            try Digits.decode(Array(text.utf8))
        } throws: { error in
            if case .badArmor = error as? SealError { return true }
            return false
        }
    }
}
