import Foundation
import Testing
import TestSupport
import QRSealKit

/// A file that came in parts can be written out whenever the user asks: on a later scan
/// with -o, from the inbox, and without an inbox.
@Suite("Files from parts, written out later")
struct ReceivedFileAgainTests {
    let dir = try! TempDir()
    var inbox: String { dir.path("inbox.sqlite") }

    /// The part files `encode` writes for `data` (unsealed), sorted.
    func parts(_ data: Data, name: String = "blob.bin") throws -> [String] {
        let input = try dir.write(name, data)
        let folder = dir.path("codes")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = qrseal(["encode", "-i", input, "-o", folder + "/b.png"])
        try #require(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
        try #require(files.count > 1, "\(files)")
        return files
    }

    func random(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255) }) }

    @Test("an unsealed file in parts, scanned without -o, is written by a second scan with -o and by inbox open")
    func laterScanAndInboxOpen() throws {
        let data = random(4_000)
        let files = try parts(data)
        let first = qrseal(["scan", "--inbox", inbox] + files)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.out.contains("pass -o DIR to save it"), "\(first.out)")
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let again = qrseal(["scan", "--inbox", inbox, "-o", out] + files)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/blob.bin")) == data)
        #expect(again.out.contains("written to"), "\(again.out)")
        // Once a run, and a third scan finds the same bytes there and leaves them.
        #expect(again.out.components(separatedBy: "written to").count == 2, "\(again.out)")
        let third = qrseal(["scan", "--inbox", inbox, "-o", out] + files)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.out.contains("already in"), "\(third.out)")

        let listed = qrseal(["inbox", "list", "--json", "--inbox", inbox])
        let id = try #require(listed.out.split(separator: "\n").compactMap { line -> Int? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["id"] as? Int
        }.first, "\(listed.out)")
        let saved = dir.path("saved.bin")
        let opened = qrseal(["inbox", "open", "-o", saved, "--inbox", inbox, String(id)])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved)) == data)
    }

    @Test("scan --no-store -o writes the file once and names no inbox item")
    func noStore() throws {
        let data = random(4_000)
        let files = try parts(data)
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = qrseal(["scan", "--no-store", "-o", out] + files)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.out.contains("inbox item") && !r.stderr.contains("inbox item"), "\(r.out)\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/blob.bin")) == data)
        #expect(!FileManager.default.fileExists(atPath: inbox))
        let json = qrseal(["scan", "--no-store", "--json"] + files)
        #expect(!json.out.contains("inbox_id"), "\(json.out)")
    }
}
