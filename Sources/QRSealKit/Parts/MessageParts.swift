/// Cutting a message into parts and putting it back together (docs/FORMAT.md, section 8.4).
public enum MessageParts {
    /// The message id: the first 4 bytes of the message's SHA-256, big-endian.
    public static func messageID(_ message: [UInt8]) -> UInt32 {
        Crypto.sha256(message).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Checks that `dataParts` and `totalParts` can carry `length` bytes.
    public static func validate(length: Int, dataParts k: Int, totalParts n: Int) throws(PartsError) {
        guard (1...Part.maxMessageBytes).contains(length) else {
            throw .cannotSplit("a message in parts holds 1 to \(Part.maxMessageBytes) bytes, not \(length)")
        }
        guard k >= 1, k <= length else { throw .cannotSplit("\(k) data parts for \(length) bytes") }
        guard n >= k, n <= Part.maxParts, n <= Part.stripeRows * k else {
            throw .cannotSplit("\(n) parts for \(k) data parts: at most \(min(Part.maxParts, Part.stripeRows * k))")
        }
        let chunk = Part.chunkLength(length: length, dataParts: k)
        guard (k - 1) * chunk < length else { throw .cannotSplit("\(k) data parts are more than \(length) bytes need") }
    }

    /// The `totalParts` parts of `message`: the first `dataParts` are the message in order,
    /// zero-padded at the end; the others are parity.
    public static func split(_ message: [UInt8], dataParts k: Int, totalParts n: Int) throws(PartsError) -> [Part] {
        try validate(length: message.count, dataParts: k, totalParts: n)
        let id = messageID(message)
        let size = Part.chunkLength(length: message.count, dataParts: k)
        let padded = message + [UInt8](repeating: 0, count: k * size - message.count)
        var chunks = [[UInt8]](repeating: [], count: n)
        for j in 0..<k { chunks[j] = Array(padded[j * size ..< (j + 1) * size]) }
        let stripes = Part.stripes(totalParts: n)
        for s in 0..<stripes {
            let data = Array(stride(from: s, to: k, by: stripes)).map { chunks[$0] }
            let parityIndexes = Array(stride(from: s, to: n, by: stripes)).filter { $0 >= k }
            let parity = ErasureCode.parity(data: data, rows: parityIndexes.map { $0 / stripes })
            for (index, chunk) in zip(parityIndexes, parity) { chunks[index] = chunk }
        }
        return chunks.enumerated().map { index, chunk in
            Part(messageID: id, dataParts: k, totalParts: n, index: index, length: message.count, chunk: chunk)
        }
    }

    /// How many more distinct parts a message needs when it holds the parts `indexes`: each
    /// stripe needs as many as it has data parts.
    public static func stillNeeded(dataParts k: Int, totalParts n: Int, indexes: Set<Int>) -> Int {
        let stripes = Part.stripes(totalParts: n)
        var have = [Int](repeating: 0, count: stripes)
        for index in indexes where index >= 0 && index < n { have[index % stripes] += 1 }
        return (0..<stripes).reduce(0) { sum, s in
            sum + max(0, Part.dataParts(inStripe: s, dataParts: k, stripes: stripes) - have[s])
        }
    }

    /// The message behind `parts`, all of one message (same id, counts and length): throws
    /// `incomplete` with too few, `inconsistent` for parts of different messages, and
    /// `damagedMessage` when the result does not match the id.
    public static func rebuild(_ parts: [Part]) throws(PartsError) -> [UInt8] {
        guard let first = parts.first else { throw .incomplete(have: 0, need: 1) }
        guard parts.allSatisfy({ $0.messageID == first.messageID && $0.dataParts == first.dataParts
                && $0.totalParts == first.totalParts && $0.length == first.length }) else {
            throw .inconsistent("different ids, part counts or lengths")
        }
        let k = first.dataParts, stripes = first.stripes
        let indexes = Set(parts.map(\.index))
        let missing = stillNeeded(dataParts: k, totalParts: first.totalParts, indexes: indexes)
        guard missing == 0 else { throw .incomplete(have: k - missing, need: k) }
        let size = Part.chunkLength(length: first.length, dataParts: k)
        // Parts read back from storage are checked again: a chunk of another length is not of this message.
        guard parts.allSatisfy({ $0.chunk.count == size && $0.index >= 0 && $0.index < first.totalParts }) else {
            throw .inconsistent("a part of another length or index than its message's")
        }
        var message = [UInt8](repeating: 0, count: k * size)
        for s in 0..<stripes {
            let mine = parts.filter { $0.stripe == s }.map { (row: $0.row, bytes: $0.chunk) }
            let data = try ErasureCode.recover(k: Part.dataParts(inStripe: s, dataParts: k, stripes: stripes), chunks: mine)
            for (row, chunk) in data.enumerated() {
                let j = row * stripes + s
                message.replaceSubrange(j * size ..< (j + 1) * size, with: chunk)
            }
        }
        message.removeLast(message.count - first.length)
        guard messageID(message) == first.messageID else { throw .damagedMessage }
        return message
    }
}
