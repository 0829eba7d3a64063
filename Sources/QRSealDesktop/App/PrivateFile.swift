import QRSealKit

/// Writes a file only its owner may read (mode 0600), whatever it replaces: an export holds
/// what the inbox holds, and a file opened from a seal or read from a code was received.
/// `SystemFiles.replace` writes it beside the target and renames it, so a failure leaves no
/// half-written file behind.
enum PrivateFile {
    /// Writes `bytes` to `path`; answers why not, nil when written.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        do { try SystemFiles.replace(path, with: bytes, mode: 0o600, keepingMode: false) } catch { return error.description }
        return nil
    }
}
