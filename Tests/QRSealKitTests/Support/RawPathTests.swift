import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Paths whose bytes are not UTF-8, as `RawBytes` carries them, reach the system unchanged
/// wherever the library hands one over: the keyring, the inbox, stream files.
@Suite("Paths that are not UTF-8")
struct RawPathTests {
    let dir = try! TempDir()

    /// `name` (UTF-8) followed by the byte 0xE9, inside the test's folder.
    func rawPath(_ name: String) -> String { RawBytes.string(Array(dir.path(name).utf8) + [0xE9]) }

    /// Whether a file exists under exactly these bytes.
    func exists(_ bytes: [UInt8]) -> Bool {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { access($0.baseAddress!, F_OK) } == 0
    }

    @Test("the keyring keeps, lists, reads and removes keys in a folder named by raw bytes")
    func keyring() throws {
        let folder = rawPath("keys")
        let ring = Keyring(directory: folder)
        let key = try SecretKey.generate()
        try ring.add(key, name: "alice")
        #expect(exists(Array(dir.path("keys").utf8) + [0xE9] + Array("/alice.key".utf8)))
        #expect(try ring.list().map(\.name) == ["alice"])
        #expect(ring.readableKeys().0 == [.keyFile(key)])
        try ring.remove("alice")
        #expect(try ring.list().isEmpty)
    }

    @Test("an inbox is created and opened under a name of raw bytes")
    func inbox() throws {
        let path = rawPath("inbox.sqlite")
        _ = try Inbox(path: path)
        #expect(exists(Array(dir.path("inbox.sqlite").utf8) + [0xE9]))
        _ = try Inbox(path: path)
    }

    @Test("a stream file named by raw bytes is read")
    func streamFile() throws {
        let bytes = Array(dir.path("frames").utf8) + [0xE9]
        let fd = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT, 0o600)
        }
        #expect(write(fd, "abc", 3) == 3)
        close(fd)
        let input = try FileInput(path: RawBytes.string(bytes))
        var buffer = [UInt8](repeating: 0, count: 8)
        let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
        #expect(Array(buffer[..<count]) == Array("abc".utf8))
    }
}
