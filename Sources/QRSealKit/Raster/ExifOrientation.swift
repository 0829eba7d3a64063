/// How a stored image must be turned to look upright: the EXIF/TIFF `Orientation` tag (0x0112).
///
/// Cameras store the sensor's rows as they come and record the way the camera was held; a
/// reader that ignores the tag sees a phone photo of a code on its side. The names follow
/// the visual result of the stored image's first row and column, as in
/// `CGImagePropertyOrientation`.
public enum ExifOrientation: UInt16, Sendable, CaseIterable {
    /// 1: stored upright ("TopLeft").
    case up = 1
    /// 2: mirrored left to right ("TopRight").
    case upMirrored = 2
    /// 3: upside down ("BottomRight").
    case down = 3
    /// 4: mirrored top to bottom ("BottomLeft").
    case downMirrored = 4
    /// 5: first row is the left column, first column the top row ("LeftTop").
    case leftMirrored = 5
    /// 6: first row is the right column; turn 90° clockwise ("RightTop").
    case right = 6
    /// 7: first row is the right column, first column the bottom row ("RightBottom").
    case rightMirrored = 7
    /// 8: first row is the left column; turn 90° counter-clockwise ("LeftBottom").
    case left = 8

    /// Reads the orientation from a JPEG's APP1 `Exif\0\0` segment, or returns nil when
    /// there is none or it cannot be read.
    ///
    /// Only the marker segments before the first scan are walked, each length checked
    /// against the bytes present, so hostile input ends the walk instead of trapping.
    public init?(jpeg bytes: [UInt8]) {
        guard let tiff = Self.exifPayload(inJPEG: bytes) else { return nil }
        self.init(tiff: tiff)
    }

    /// Reads the `Orientation` tag from IFD0 of a TIFF structure (the body of an EXIF
    /// segment), in either byte order, or returns nil when it is absent or unreadable.
    ///
    /// Only IFD0 is read, and only when all its entries lie inside the data; no offset
    /// chain is followed, so offsets that loop or point outside cannot make this run long
    /// or read out of bounds.
    public init?(tiff: ArraySlice<UInt8>) {
        let data = Array(tiff)
        guard data.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (data[0], data[1]) {
        case (0x49, 0x49): bigEndian = false  // "II", Intel
        case (0x4D, 0x4D): bigEndian = true   // "MM", Motorola
        default: return nil
        }
        let reader = ByteReader(data: data, bigEndian: bigEndian)
        guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4).map(Int.init),
              let count = reader.u16(at: ifd).map(Int.init),
              ifd + 2 + 12 * count <= data.count else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard let tag = reader.u16(at: entry), let type = reader.u16(at: entry + 2),
                  let valueCount = reader.u32(at: entry + 4) else { return nil }
            guard tag == 0x0112 else { continue }
            guard valueCount >= 1 else { return nil }
            // Values of four bytes or fewer sit in the entry itself, left-justified.
            let value: UInt16?
            switch type {
            case 3: value = reader.u16(at: entry + 8)  // SHORT, as the specification says
            // LONG, which some writers use instead.
            case 4: value = reader.u32(at: entry + 8).map { UInt16(truncatingIfNeeded: $0) }
            default: value = nil
            }
            guard let value, let orientation = ExifOrientation(rawValue: value) else { return nil }
            self = orientation
            return
        }
        return nil
    }

    /// The TIFF bytes following `Exif\0\0` in the first APP1 segment that carries them.
    static func exifPayload(inJPEG bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
        for (marker, payload) in JPEGSegments(bytes) {
            if marker == JPEGSegments.startOfScan || marker == JPEGSegments.endOfImage { return nil }
            if marker == 0xE1, bytes[payload].starts(with: exifHeader) {
                return bytes[(payload.lowerBound + exifHeader.count)..<payload.upperBound]
            }
        }
        return nil
    }
}

/// Bounds-checked reads of unsigned integers at byte offsets in one byte order.
private struct ByteReader {
    let data: [UInt8]
    let bigEndian: Bool

    func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= data.count - 2 else { return nil }
        let a = UInt16(data[offset]), b = UInt16(data[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= data.count - 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(data[offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
