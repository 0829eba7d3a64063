import Foundation
import TestSupport
@testable import QRSealKit

/// Messages of several symbols, built directly as `encode` will once messages are split:
/// each symbol a different payload, labelled as parts are.
enum RenderFixtures {
    /// `count` symbols of at least `version`, payload `K7F2-i` padded, labelled "K7F2 · part i of count".
    static func message(_ count: Int, version: Int = 1, id: String = "K7F2") -> (EncodedMessage, [String]) {
        let encoder = QREncoder(level: .medium, minVersion: version)
        var payloads: [String] = []
        var symbols: [EncodedSymbol] = []
        for i in 1...count {
            let payload = "\(id)-\(i)-" + String(repeating: "x", count: 20)
            payloads.append(payload)
            symbols.append(EncodedSymbol(matrix: try! encoder.encode(.text(payload)), label: "\(id) · part \(i) of \(count)"))
        }
        let content = Array(payloads.joined().utf8)
        return (EncodedMessage(symbols: symbols, dataParts: max(1, count * 3 / 4), totalBytes: content.count,
                               sha256: Crypto.sha256(content), id: id), payloads)
    }

    /// The payloads zbarimg reads in `images`, one per code.
    static func zbar(_ images: [String]) throws -> [String] {
        let r = try Tools.run("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable"] + images)
        return r.stdoutText.split(separator: "\n").map(String.init)
    }

    /// pdfinfo's "Key: value" lines as a dictionary.
    static func pdfinfo(_ path: String) throws -> [String: String] {
        var info: [String: String] = [:]
        for line in try Tools.run("pdfinfo", [path]).stdoutText.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            info[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return info
    }
}
