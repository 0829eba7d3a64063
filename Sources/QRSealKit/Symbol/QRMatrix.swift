/// The modules of one QR symbol, without its quiet zone.
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side: 17 + 4 × version.
    public let size: Int
    public let version: Int
    public let level: ErrorCorrection
    /// Row-major; true = dark.
    public let modules: [Bool]

    public init(size: Int, version: Int, level: ErrorCorrection, modules: [Bool]) {
        precondition(modules.count == size * size, "module count does not match \(size)x\(size)")
        self.size = size
        self.version = version
        self.level = level
        self.modules = modules
    }

    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}
