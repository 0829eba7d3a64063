/// A run of input bytes encoded in one QR mode.
public struct Segment: Equatable, Sendable {
    /// The QR encoding modes we write (`QR_MODE_NUM`, `QR_MODE_AN`, `QR_MODE_8`).
    public enum Mode: CaseIterable, Sendable {
        case numeric, alphanumeric, byte

        /// Whether `byte` can be written in this mode.
        public func accepts(_ byte: UInt8) -> Bool {
            switch self {
            case .numeric: return byte >= 0x30 && byte <= 0x39
            case .alphanumeric: return Self.alphanumericSet[Int(byte)]
            case .byte: return true
            }
        }

        /// Length in bits of the character-count field, which grows with the version.
        public func countBits(version: Int) -> Int {
            let group = version <= 9 ? 0 : (version <= 26 ? 1 : 2)
            switch self {
            case .numeric: return [10, 12, 14][group]
            case .alphanumeric: return [9, 11, 13][group]
            case .byte: return [8, 16, 16][group]
            }
        }

        /// Bits taken by `count` characters of this mode, without the segment header.
        public func payloadBits(count: Int) -> Int {
            switch self {
            case .numeric: return count / 3 * 10 + [0, 4, 7][count % 3]
            case .alphanumeric: return count / 2 * 11 + (count % 2) * 6
            case .byte: return count * 8
            }
        }

        private static let alphanumericSet: [Bool] = (0..<256).map { b in
            let c = UInt8(b)
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A)
                || Array(" $%*+-./:".utf8).contains(c)
        }
    }

    public let mode: Mode
    public let bytes: [UInt8]

    public init(mode: Mode, bytes: [UInt8]) {
        precondition(bytes.allSatisfy(mode.accepts), "byte outside the \(mode) character set")
        self.mode = mode
        self.bytes = bytes
    }

    /// Bits the segment takes in a symbol of `version`: mode indicator, count, payload.
    public func bitLength(version: Int) -> Int {
        4 + mode.countBits(version: version) + mode.payloadBits(count: bytes.count)
    }
}

extension [Segment] {
    /// Bits these segments take in a symbol of `version`.
    public func bitLength(version: Int) -> Int {
        reduce(0) { $0 + $1.bitLength(version: version) }
    }
}
