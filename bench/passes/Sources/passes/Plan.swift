import Foundation
@testable import QRSealKit

/// One image's profile: what decoding it cost, then every stage `Detector` ran on it, in
/// the order they ended, with their CPU time and the payloads they read; apart from them,
/// every prepared copy made, with its CPU time (a copy made twice is listed twice).
private final class Stages: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [[Any]] = []
    private var madeCopies: [[Any]] = []
    func add(_ stage: String, _ ms: Double, _ reads: [Detection]) {
        let payloads = reads.map { $0.bytes.map { String(format: "%02x", $0) }.joined() }
        lock.lock(); defer { lock.unlock() }
        if stage.hasPrefix("copy ") { madeCopies.append([String(stage.dropFirst(5)), ms]) } else { rows.append([stage, ms, payloads]) }
    }
    var all: [[Any]] { lock.lock(); defer { lock.unlock() }; return rows }
    var copies: [[Any]] { lock.lock(); defer { lock.unlock() }; return madeCopies }
}

/// Runs `Detector` at `effort` on each image with its profile hook set and writes, per
/// image, the decoding's CPU time, the stages and the payloads found at the end.
func profilePlan(effort: Effort, output: String, images: [String]) throws {
    var rows: [[String: Any]] = []
    for path in images {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { continue }
        let start = threadCPUMilliseconds()
        guard let image = try? ImageDecoder().decode([UInt8](data)) else { continue }
        let decoding = threadCPUMilliseconds() - start
        let stages = Stages()
        var detector = Detector(effort: effort)
        detector.profile = { stages.add($0, $1, $2) }
        let found = detector.detect(in: image)
        rows.append(["file": path, "pixels": image.width * image.height, "decode": decoding, "stages": stages.all, "copies": stages.copies,
                     "found": found.map { $0.bytes.map { String(format: "%02x", $0) }.joined() }])
    }
    let json = try JSONSerialization.data(withJSONObject: ["effort": effort.rawValue, "rows": rows])
    try json.write(to: URL(fileURLWithPath: output))
}
