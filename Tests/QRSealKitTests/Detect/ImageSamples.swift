import Foundation
import TestSupport
@testable import QRSealKit

/// A folder of Tests/Images holding one code an image read through the engines: `NAME.png`
/// beside what it holds, `NAME.bin` (raw bytes) or else `NAME.txt` (its first line).
struct ImageSamples: Sendable {
    let folder: URL
    /// The images' names, without their extension, sorted.
    let names: [String]

    init(_ folder: String) {
        self.folder = Tools.packageRoot.appendingPathComponent("Tests/Images").appendingPathComponent(folder)
        names = ((try? FileManager.default.contentsOfDirectory(atPath: self.folder.path)) ?? [])
            .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// The image `NAME.png` and what it holds.
    func sample(_ name: String) throws -> (GrayImage, [UInt8]) {
        let base = folder.appendingPathComponent(name)
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: base.appendingPathExtension("png"))))
        if let bin = try? Data(contentsOf: base.appendingPathExtension("bin")) { return (image, [UInt8](bin)) }
        let text = try Data(contentsOf: base.appendingPathExtension("txt"))
        return (image, Array(text.prefix { $0 != UInt8(ascii: "\n") }))
    }
}
