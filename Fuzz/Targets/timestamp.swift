// Times as users and import files write them (`Timestamp.parse`, behind `--since`, `--until`
// and `received_at`): any text is refused or read as a time that writes out as ISO 8601 and
// reads back the same to the millisecond; any time in years 0000–9999 writes and reads back.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimestamp(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard let first = input.first else { return 0 }
    // The zone assumed for times without one: whole quarter hours from −12:00 to +14:00.
    let offset = (Int(first) % 105 - 48) * 15
    let text = String(decoding: input.dropFirst(), as: UTF8.self)
    if let time = Timestamp.parse(text, defaultOffsetMinutes: offset) {
        let written = Timestamp.iso8601(time)
        require(Timestamp.parse(written) == time, "\(text.debugDescription) gives \(time), written \(written)")
    }
    if input.count >= 9 {
        let raw = input[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        // Milliseconds from 0000-01-01 to 9999-12-31T23:59:59.999.
        let low: Int64 = -62_167_219_200_000, high: Int64 = 253_402_300_799_999
        let time = low + Int64(bitPattern: UInt64(bitPattern: raw) % UInt64(high - low + 1))
        let written = Timestamp.iso8601(time)
        require(Timestamp.parse(written) == time, "\(time) written \(written) does not read back")
    }
    return 0
}
