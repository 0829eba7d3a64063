// The intake (`Intake.take`): a symbol's bytes (first byte 0), one of a Structured Append
// sequence (1: index, count and parity from the next three bytes), or pasted text (2), taken
// twice with nothing kept. A piece is filed, never opened as a message; anything else is a
// message; nothing claims an inbox id; the same piece again adds nothing new.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIntake(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard let mode = input.first else { return 0 }
    let reader = Reader(opener: Opener(maxScryptLog2N: 10), keys: [.passphrase("fuzz"), .keyFile(SecretKey(bytes: [UInt8](repeating: 7, count: 32)))])
    let intake = Intake(reader: reader, keeping: .nothing, clock: { 1_764_590_000_000 })
    let source = IntakeSource.file("fuzz.png")
    let corners = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
    switch mode % 3 {
    case 2:
        let outcome = intake.take(pasted: String(decoding: input.dropFirst(), as: UTF8.self), from: source)
        require(outcome.kept == nil && outcome.inboxFailure == nil, "kept with nothing to keep")
    default:
        var detection = Detection(symbology: .qr, bytes: Array(input.dropFirst(mode % 3 == 1 ? 4 : 1)), corners: corners)
        if mode % 3 == 1, input.count >= 4 {
            let count = Int(input[2] % 16) + 1
            detection.structuredAppend = StructuredAppend(index: Int(input[1]) % count, count: count, parity: Int(input[3]))
        }
        for round in 0..<2 {
            let outcome = intake.take([detection], from: source)[0]
            require(outcome.kept == nil && outcome.inboxFailure == nil, "kept with nothing to keep")
            switch outcome.event {
            case .message:
                require(!outcome.classification.isPiece, "a piece handed back as a message")
            case .piece(let piece):
                require(outcome.classification.isPiece, "a message filed as a piece")
                if round == 1, case .waiting(isNew: true) = piece.state { require(false, "the same piece was new twice") }
            case .damagedPiece:
                require(outcome.classification.isPiece, "a damaged piece that is no piece")
            }
        }
    }
    return 0
}
