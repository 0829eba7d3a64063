import Glibc
import QRSealKit

/// Writes a file only its owner may read (mode 0600): an export holds what the inbox holds,
/// and a file opened from a seal was secret. The bytes go to a new file beside the target,
/// which then takes the target's name, so a failure leaves no half-written file behind.
enum PrivateFile {
    /// Writes `bytes` to `path`; answers why not, nil when written.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let made: (fd: Int32, path: String)
        do { made = try SystemFiles.makeTemporary(SystemFiles.join(SystemFiles.directory(of: path), ".qrseal-XXXXXX")) } catch {
            return error.description
        }
        let failed = bytes.withUnsafeBytes { SystemFiles.writeAll($0, to: made.fd) }
        let closed = close(made.fd) == 0 ? 0 : errno
        guard failed == 0, closed == 0, SystemFiles.rename(made.path, to: path) else {
            let reason = SystemFiles.reason(failed != 0 ? failed : closed != 0 ? closed : errno)
            SystemFiles.remove(made.path)
            return reason
        }
        return nil
    }
}
