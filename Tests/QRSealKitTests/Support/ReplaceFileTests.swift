import Foundation
import Testing
@testable import QRSealKit

/// `SystemFiles.replace`: the desktop app's save, after its dialog asked.
@Suite("Support: replacing a file whole")
struct ReplaceFileTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "qrseal-replace-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a new file is written whole, and nothing else is left in its folder")
    func newFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SystemFiles.replace(dir + "/code.png", with: [1, 2, 3])
        #expect(FileManager.default.contents(atPath: dir + "/code.png") == Data([1, 2, 3]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["code.png"])
    }

    @Test("a file there is replaced and keeps its mode")
    func replaced() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/code.svg"
        FileManager.default.createFile(atPath: path, contents: Data("old, longer content".utf8),
                                       attributes: [.posixPermissions: 0o640])
        try SystemFiles.replace(path, with: Array("new".utf8))
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["code.svg"])
    }

    @Test("a directory is refused, and a missing folder is an error, leaving nothing")
    func refused() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: SystemFiles.Failure.isDirectory) { try SystemFiles.replace(dir, with: [1]) }
        #expect(throws: SystemFiles.Failure.self) { try SystemFiles.replace(dir + "/missing/code.png", with: [1]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
