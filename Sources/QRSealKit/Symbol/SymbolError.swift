/// Why a symbol could not be built.
public enum SymbolError: Error, Equatable, Sendable {
    /// The data does not fit one symbol. `size` is the input's byte count and `fits` the
    /// most bytes of this input that would fit at `level` (by version 40).
    case tooLarge(size: Int, fits: Int, level: ErrorCorrection)
    /// A version outside 1...40 was asked for.
    case badVersion(Int)
    /// libqrencode refused the input; the text is its reason.
    case encoderFailed(String)
}

extension SymbolError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .tooLarge(size, fits, level):
            return "input is \(size) bytes, too much for one QR code: at most \(fits) bytes "
                + "of this input fit at error correction \(level.rawValue)"
        case let .badVersion(version):
            return "QR version \(version) does not exist (versions are 1 to 40)"
        case let .encoderFailed(reason):
            return "cannot build QR code: \(reason)"
        }
    }
}
