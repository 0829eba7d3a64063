import FoundationEssentials
import Glibc
import QRSealKit

/// Standard input read with a cap, so that an endless or huge input (`yes 7 | qrseal open -`)
/// is refused after `limit` bytes instead of filling the memory.
enum StandardInput {
    /// The next bytes of standard input, up to `limit` and one more when there is more, and
    /// whether there was more than `limit`.
    static func prefix(_ console: Console, limit: Int) -> (bytes: [UInt8], more: Bool) {
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let part = console.readInputPart(min(64 << 10, limit + 1 - bytes.count))
            if part.isEmpty { break }
            bytes += part
        }
        return (bytes, bytes.count > limit)
    }

    /// All of standard input, refused when it passes `limit` bytes; `what` says what the limit is.
    static func read(_ console: Console, limit: Int, what: String) throws(CLIError) -> [UInt8] {
        let (bytes, more) = prefix(console, limit: limit)
        guard !more else { throw tooLarge(limit: limit, what: what) }
        return bytes
    }

    /// An image on standard input, read up to `limit`; input whose first bytes are no image's
    /// is not read further, and the decoder says what it is not.
    static func image(_ console: Console, limit: Int) throws(CLIError) -> [UInt8] {
        let (head, more) = prefix(console, limit: ImageDecoder.sniffLength)
        guard more, ImageDecoder.sniff(head) != nil else { return head }
        return head + (try read(console, limit: limit - head.count, what: "the most this tool reads"))
    }

    static func tooLarge(limit: Int, what: String) -> CLIError {
        CLIError(message: "-: input is larger than \(limit) bytes, \(what)")
    }
}
