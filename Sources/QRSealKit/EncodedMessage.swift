/// One symbol of an encoded message, with the label printed under it.
public struct EncodedSymbol: Sendable {
    public let matrix: QRMatrix
    /// For example "K7F2 · part 3 of 12"; nil for a one-symbol message.
    public let label: String?

    public init(matrix: QRMatrix, label: String?) {
        self.matrix = matrix
        self.label = label
    }
}

/// A message as the symbols that carry it: what the outputs (PNG, PDF sheet, terminal
/// animation, GIF) draw.
public struct EncodedMessage: Sendable {
    public let symbols: [EncodedSymbol]
    /// K: how many distinct parts rebuild it.
    public let dataParts: Int
    /// The size of the content as given (file or text bytes).
    public let totalBytes: Int
    /// The SHA-256 of the content as given.
    public let sha256: [UInt8]
    /// The message id as printed in labels; nil for one symbol.
    public let id: String?

    public init(symbols: [EncodedSymbol], dataParts: Int, totalBytes: Int, sha256: [UInt8], id: String?) {
        self.symbols = symbols
        self.dataParts = dataParts
        self.totalBytes = totalBytes
        self.sha256 = sha256
        self.id = id
    }
}
