/// One symbol of a message to write, with the short label a person reads beside it.
public struct EncodedSymbol: Sendable {
    public let matrix: QRMatrix
    /// "9F3A21C0 · part 3 of 12"; nil for a message of one symbol.
    public let label: String?

    public init(matrix: QRMatrix, label: String?) {
        self.matrix = matrix
        self.label = label
    }
}

/// A message ready to write: one symbol when it fits, else its parts in order.
public struct EncodedMessage: Sendable {
    public let symbols: [EncodedSymbol]
    /// K: how many distinct parts rebuild it (1 for one symbol).
    public let dataParts: Int
    /// The bytes of the content as given (file or text).
    public let totalBytes: Int
    /// SHA-256 of the content as given.
    public var sha256: [UInt8] {
        switch digest {
        case .known(let sha256): sha256
        case .of(let content): Crypto.sha256(content)
        }
    }
    /// The message id as labels print it; nil for one symbol.
    public let id: String?

    /// A message of one symbol keeps its (small) content and hashes it only when asked, for
    /// the PDF sheet: a plain `encode` to PNG then never initialises OpenSSL (bench/startup.py).
    private enum Digest: Sendable {
        case known([UInt8])
        case of([UInt8])
    }
    private let digest: Digest

    public init(symbols: [EncodedSymbol], dataParts: Int, totalBytes: Int, sha256: [UInt8], id: String?) {
        self.init(symbols: symbols, dataParts: dataParts, totalBytes: totalBytes, digest: .known(sha256), id: id)
    }

    private init(symbols: [EncodedSymbol], dataParts: Int, totalBytes: Int, digest: Digest, id: String?) {
        self.symbols = symbols
        self.dataParts = dataParts
        self.totalBytes = totalBytes
        self.digest = digest
        self.id = id
    }

    /// A message of one symbol, for `content`.
    public init(single matrix: QRMatrix, content: [UInt8]) {
        self.init(symbols: [EncodedSymbol(matrix: matrix, label: nil)], dataParts: 1, totalBytes: content.count,
                  digest: .of(content), id: nil)
    }
}

/// How a message larger than one symbol is split.
public struct SplitOptions: Sendable {
    /// The largest symbol version a part may use.
    public var maxVersion: Int
    /// Parity parts as a percentage of the data parts (rounded up).
    public var redundancy: Int
    /// The number of parts to write, data and parity; nil: as few as `maxVersion` allows.
    public var parts: Int?

    public static let defaultRedundancy = 50

    public init(maxVersion: Int = 40, redundancy: Int = SplitOptions.defaultRedundancy, parts: Int? = nil) {
        self.maxVersion = maxVersion
        self.redundancy = redundancy
        self.parts = parts
    }
}

/// How a message is cut: K data parts, N in all, in symbols of one version.
public struct PartPlan: Equatable, Sendable {
    public let dataParts: Int
    public let totalParts: Int
    public let version: Int
    /// Bytes of the message per part.
    public let chunkLength: Int
}

extension Encoder {
    /// The bytes a plain message in parts carries: the inner plaintext of FORMAT.md section
    /// 3, in the clear (so a file keeps its name), compressed when that makes it smaller.
    public func plainWhole(_ payload: Payload) throws(SealError) -> [UInt8] {
        try InnerPlaintext.encode(payload, compress: sealer.compress, compressedLimit: Part.maxMessageBytes)
    }

    /// The envelope of `payload` sealed with `key`, of any length parts carry.
    public func sealedWhole(_ payload: Payload, with key: SealKey) throws(SealError) -> [UInt8] {
        try sealer.seal(payload, with: key, maxEnvelope: Part.maxMessageBytes)
    }

    /// The plan for `length` bytes: K from `parts` (N = K plus the redundancy) or from the
    /// largest part `maxVersion` holds, and the smallest version (from `minVersion`) that
    /// holds each part.
    public func plan(length: Int, _ options: SplitOptions) throws(PartsError) -> PartPlan {
        let level = symbol.level
        let minVersion = min(symbol.minVersion, options.maxVersion)
        let most = Part.chunkCapacity(version: options.maxVersion, level: level, armor: armor)
        guard most > 0 else { throw .cannotSplit("a version \(options.maxVersion) code holds no part") }
        let k: Int, n: Int
        if let total = options.parts {
            k = min(total, max(1, Int((Double(total) * 100 / Double(100 + options.redundancy)).rounded())))
            n = total
            let fewest = (length + most - 1) / most
            guard Part.chunkLength(length: length, dataParts: min(k, length)) <= most else {
                throw .cannotSplit("\(length) bytes need at least \(fewest) data parts at version \(options.maxVersion)-"
                                   + "\(level.rawValue), more than \(k) of \(total) parts")
            }
        } else {
            k = (length + most - 1) / most
            n = min(Part.maxParts, k + (k * options.redundancy + 99) / 100, Part.stripeRows * k)
        }
        try MessageParts.validate(length: length, dataParts: k, totalParts: n)
        let chunk = Part.chunkLength(length: length, dataParts: k)
        let version = (minVersion...options.maxVersion).first {
            Part.chunkCapacity(version: $0, level: level, armor: armor) >= chunk
        } ?? options.maxVersion
        return PartPlan(dataParts: k, totalParts: n, version: version, chunkLength: chunk)
    }

    /// The symbols of `whole` (from `plainWhole` or `sealedWhole`) cut as `plan` says, each
    /// labelled; `content` is what the user gave, for the size and hash a sheet prints.
    public func encodeParts(_ whole: [UInt8], plan: PartPlan, content: [UInt8]) throws(PartsError) -> EncodedMessage {
        let parts = try MessageParts.split(whole, dataParts: plan.dataParts, totalParts: plan.totalParts)
        var partEncoder = symbol
        partEncoder.minVersion = plan.version
        var symbols: [EncodedSymbol] = []
        for part in parts {
            do {
                symbols.append(EncodedSymbol(matrix: try partEncoder.encode(part.content(armor: armor)),
                                             label: "\(part.idText) · part \(part.index + 1) of \(plan.totalParts)"))
            } catch {
                throw .cannotSplit(error.description)
            }
        }
        return EncodedMessage(symbols: symbols, dataParts: plan.dataParts, totalBytes: content.count,
                              sha256: Crypto.sha256(content), id: parts.first?.idText)
    }
}
