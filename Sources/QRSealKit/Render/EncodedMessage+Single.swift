extension EncodedMessage {
    /// A message carried by one symbol: no label, no id, one part; `content` is what was
    /// encoded (the file or text bytes), for its size and SHA-256.
    public static func single(_ matrix: QRMatrix, content: [UInt8]) -> EncodedMessage {
        EncodedMessage(symbols: [EncodedSymbol(matrix: matrix, label: nil)], dataParts: 1,
                       totalBytes: content.count, sha256: Crypto.sha256(content), id: nil)
    }
}
