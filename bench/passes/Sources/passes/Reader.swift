import Foundation
@testable import QRSealKit

/// Runs the grey-profile EAN/UPC reader (`ProfileReader`) alone on each image as it is, as
/// `Pass(.profiles)` does, and writes per image its CPU time and the payloads it read: the
/// reader's own cost and reads, whatever the plan's gates let it see.
func profileReader(output: String, images: [String]) throws {
    var rows: [[String: Any]] = []
    let reader = ProfileReader(symbologies: Symbology.defaultSet)
    for path in images {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
              let image = try? ImageDecoder().decode([UInt8](data)) else { continue }
        let start = threadCPUMilliseconds()
        let found = reader.scan(image)
        let ms = threadCPUMilliseconds() - start
        rows.append(["file": path, "ms": ms,
                     "found": found.map { "\($0.symbology) " + String(decoding: $0.bytes, as: UTF8.self) }])
    }
    let json = try JSONSerialization.data(withJSONObject: ["rows": rows])
    try json.write(to: URL(fileURLWithPath: output))
}

