import Foundation
import Testing
import TestSupport

/// Paths and arguments whose bytes are not UTF-8 reach the system unchanged. Foundation's
/// Process passes only UTF-8 arguments, so the real binary is run by `sh`, which makes the
/// bytes with printf.
@Suite("Arguments and paths that are not UTF-8")
struct RawArgumentTests {
    let dir = try! TempDir()

    /// Runs `script` with `sh -c` in the test's folder; `$Q` is the qrseal binary.
    func sh(_ script: String) throws -> ToolResult {
        try Tools.run("/bin/sh", ["-c", "Q=\"$1\"; " + script, "sh", Tools.qrseal], currentDirectory: dir.url.path)
    }

    /// The names in the test's folder, as the bytes the file system holds.
    func names() -> [[UInt8]] {
        guard let stream = opendir(dir.url.path) else { return [] }
        defer { closedir(stream) }
        var found: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { found.append(name) }
        }
        return found
    }

    @Test("a file named by bytes that are not UTF-8 is written under exactly those bytes, and found again")
    func pathBytes() throws {
        let r = try sh(#"$Q encode -o "$(printf 'out\351.png')" hello && $Q scan --raw --no-store "$(printf 'out\351.png')""#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText == "hello\n")
        #expect(names() == [Array("out".utf8) + [0xE9] + Array(".png".utf8)])
        let scan = try sh(#"cp "$(printf 'out\351.png')" "$(printf '\377\376.png')" && $Q scan --raw --no-store "$(printf '\377\376.png')""#)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdoutText == "hello\n")
    }

    @Test("keys, inboxes, received files and exports go where the bytes say")
    func otherOutputs() throws {
        let r = try sh(#"""
            k="$(printf 'k\351.key')"; box="$(printf 'in\351.sqlite')"; out="$(printf 'd\351')"
            mkdir "$out" && printf 'a file\n' > sent.txt &&
            $Q keygen -o "$k" && $Q encode --key-file "$k" -i sent.txt -o sealed.png &&
            $Q scan --inbox "$box" --key-file "$k" -o "$out" sealed.png &&
            $Q inbox export --inbox "$box" -o "$(printf 'e\351.jsonl')" && cat "$out/sent.txt"
            """#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.hasSuffix("a file\n"))
        let made = Set(names())
        for name in ["k\u{E9}.key", "in\u{E9}.sqlite", "d\u{E9}", "e\u{E9}.jsonl"] {
            let bytes = Array(name.unicodeScalars.map { UInt8($0.value) })
            #expect(made.contains(bytes), "\(name)")
        }
    }

    @Test("an inbox named by QRSEAL_INBOX in bytes that are not UTF-8 is created under exactly those bytes")
    func environmentBytes() throws {
        let r = try sh(#"$Q encode -o t.png hi && QRSEAL_INBOX="$PWD/$(printf 'env\351.sqlite')" $Q scan --raw t.png"#)
        #expect(r.stdoutText.hasSuffix("hi\n"), "\(r.stdoutText) \(r.stderr)")
        #expect(Set(names()).contains(Array("env".utf8) + [0xE9] + Array(".sqlite".utf8)), "\(names())")
    }

    @Test("a text argument that is not UTF-8 is encoded as its bytes")
    func textBytes() throws {
        let r = try sh(#"$Q encode -o t.png "$(printf 'caf\351')" && $Q scan --raw --no-store t.png"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect([UInt8](r.stdout) == Array("caf".utf8) + [0xE9, 0x0A])
    }
}
