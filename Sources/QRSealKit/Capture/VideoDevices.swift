import Glibc

/// What one video device node is and whether we can capture from it, found by opening it
/// and asking, without capturing.
public struct VideoDeviceInfo: Sendable, Equatable {
    public let path: String
    /// The driver's name for the device, its driver and its bus, when it could be opened.
    public let card: String?
    public let driver: String?
    public let bus: String?
    /// The pixel formats it offers for capture, as four-character codes.
    public let formats: [String]
    /// Why it cannot be used to scan; nil when it can.
    public let problem: CaptureError?

    public var canCapture: Bool { problem == nil }
}

/// The system's video devices.
public enum VideoDevices {
    /// The `videoN` nodes in `directory`, in order of N.
    public static func list(in directory: String = "/dev") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("video"), let n = Int(name.dropFirst(5)), n >= 0 { numbers.append(n) }
        }
        return numbers.sorted().map { "\(directory)/video\($0)" }
    }

    /// Opens `path` and reports what it is: a camera we can read, a node that cannot
    /// capture, one this user may not open, or one offering no format we read.
    public static func probe(_ path: String) -> VideoDeviceInfo {
        let device: VideoDeviceHandle
        do {
            device = try VideoDeviceHandle(path: path)
        } catch {
            return VideoDeviceInfo(path: path, card: nil, driver: nil, bus: nil, formats: [], problem: error)
        }
        let offered = device.formats().map(PixelFormat.name(of:))
        var problem: CaptureError?
        if !device.canCapture {
            problem = .cannotCapture(card: device.card)
        } else if !offered.contains(where: { PixelFormat(rawValue: $0) != nil }) {
            problem = .noSupportedFormat(offered: offered)
        }
        return VideoDeviceInfo(path: path, card: device.card, driver: device.driver, bus: device.bus,
                               formats: offered, problem: problem)
    }
}
