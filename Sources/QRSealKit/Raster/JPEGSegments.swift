/// The marker segments of a JPEG stream, in order, without decoding anything.
///
/// Each length is checked against the bytes present, so hostile input ends the walk instead
/// of trapping; the entropy-coded data after each SOS (start of scan) is skipped up to the
/// next marker. The walk ends at EOI, at the end of the bytes, or at the first byte that is
/// not where a marker should be.
struct JPEGSegments: Sequence, IteratorProtocol {
    /// SOS, start of scan: one per scan, so a progressive file has several.
    static let startOfScan: UInt8 = 0xDA
    /// EOI, end of image.
    static let endOfImage: UInt8 = 0xD9

    private let bytes: [UInt8]
    private var position: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // SOI, start of image, must come first.
        position = bytes.starts(with: [0xFF, 0xD8]) ? 2 : bytes.count
    }

    /// The next segment's marker and the range of its payload (after the length field;
    /// empty for markers without one).
    mutating func next() -> (marker: UInt8, payload: Range<Int>)? {
        while position + 1 < bytes.count, bytes[position] == 0xFF, bytes[position + 1] == 0xFF {
            position += 1  // fill bytes before a marker
        }
        guard position + 1 < bytes.count, bytes[position] == 0xFF else { return nil }
        let marker = bytes[position + 1]
        // Markers without a length: TEM and RST0…RST7; EOI ends the stream.
        if marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == Self.endOfImage {
            position = marker == Self.endOfImage ? bytes.count : position + 2
            return (marker, position..<position)
        }
        guard position + 3 < bytes.count else { return nil }
        let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
        let end = position + 2 + length
        guard length >= 2, end <= bytes.count else { return nil }
        let payload = position + 4..<end
        position = end
        if marker == Self.startOfScan { skipEntropyCodedData() }
        return (marker, payload)
    }

    /// Moves to the next 0xFF that starts a marker: not a stuffed 0xFF 0x00, not a restart marker.
    private mutating func skipEntropyCodedData() {
        while let ff = bytes[position...].firstIndex(of: 0xFF) {
            guard ff + 1 < bytes.count else { position = bytes.count; return }
            let next = bytes[ff + 1]
            if next != 0x00 && !(0xD0...0xD7).contains(next) { position = ff; return }
            position = ff + 2
        }
        position = bytes.count
    }
}
