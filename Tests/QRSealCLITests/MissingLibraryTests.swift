import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// zbar, Tesseract, cairo and giflib are opened when a command first needs one, not linked:
/// a machine without one still runs every command that does not need it, and a command that
/// does says which library is missing and which package installs it.
///
/// The real binary runs in a mount namespace of its own (`unshare --map-root-user --mount`)
/// where the library's file is /dev/null, so that the loader finds it "too short", as on a
/// machine where the package is broken; nothing outside that process sees the change.
@Suite("command line: libraries opened on first use")
struct MissingLibraryTests {
    /// Whether this machine lets a process make a private mount namespace.
    static let canHide: Bool = (try? Tools.run("unshare", ["--map-root-user", "--mount", "true"]).status) == 0

    /// The file the loader would open for `library`, links resolved (`ldconfig -p`).
    static func file(of library: SharedLibrary) throws -> String {
        let cache = try Tools.run("/sbin/ldconfig", ["-p"]).stdoutText
        let line = try #require(cache.split(separator: "\n").first {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix(library.soname + " ")
        }, "\(library.soname) is not in the loader's cache")
        let path = try #require(line.components(separatedBy: " => ").last)
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Runs qrseal with `hidden`'s file replaced by an empty one.
    func run(hiding hidden: SharedLibrary, _ arguments: [String], in dir: TempDir) throws -> ToolResult {
        let script = #"mount --bind /dev/null "$0" && exec "$@""#
        return try Tools.run("unshare", ["--map-root-user", "--mount", "sh", "-c", script, try Self.file(of: hidden),
                                         Tools.qrseal] + arguments,
                             currentDirectory: dir.url.path)
    }

    @Test("the binary does not link them: the loader maps none at start-up")
    func notLinked() throws {
        let needed = try Tools.run("readelf", ["-d", Tools.qrseal]).stdoutText
        #expect(needed.contains("libqrencode.so"), "\(needed)")
        for library in SharedLibrary.all {
            #expect(!needed.contains(library.soname), "\(library.soname) is linked")
        }
    }

    @Test("without cairo, a PNG is still encoded; a PDF sheet fails naming libcairo.so.2 and its package, and no file is left",
          .enabled(if: canHide))
    func cairoMissing() throws {
        let dir = try TempDir()
        let png = try run(hiding: .cairo, ["encode", "-o", "x.png", "hello"], in: dir)
        #expect(png.status == 0, "\(png.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path("x.png")))
        let pdf = try run(hiding: .cairo, ["encode", "--format", "pdf", "-o", "x.pdf", "hello"], in: dir)
        #expect(pdf.status == 2)
        let lines = pdf.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("qrseal: error: cannot load libcairo.so.2, which drawing PDF sheets and labels needs: ") == true,
                "\(pdf.stderr)")
        #expect(lines.first?.contains("too short") == true, "\(pdf.stderr)")
        #expect(lines.dropFirst().first == "qrseal: hint: install it: apt-get install libcairo2", "\(pdf.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.pdf")))
    }

    @Test("without giflib, an animated GIF fails naming libgif.so.7", .enabled(if: canHide))
    func gifMissing() throws {
        let dir = try TempDir()
        let r = try run(hiding: .gif, ["encode", "--format", "gif", "-o", "x.gif", "hello"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: cannot load libgif.so.7, which reading and writing GIFs needs: "), "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: hint: install it: apt-get install libgif7"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.gif")))
    }

    @Test("without zbar, a code zxing-cpp reads is read; an image that needed zbar's passes ends with exit 2 naming libzbar.so.0",
          .enabled(if: canHide))
    func zbarMissing() throws {
        let dir = try TempDir()
        #expect(qrseal(["encode", "-o", dir.path("hello.png"), "hello"]).status == 0)
        let read = try run(hiding: .zbar, ["scan", "--no-store", "--raw", "hello.png"], in: dir)
        #expect(read.status == 0 && read.stdoutText == "hello\n" && read.stderr.isEmpty, "\(read.stderr)")
        // Bars that are no code: every pass for bars runs, zbar's among them.
        var bars = [UInt8](repeating: 255, count: 200 * 100)
        for (x, width) in [(20, 3), (27, 6), (38, 2), (45, 4), (56, 3), (64, 6), (75, 2), (83, 5), (94, 3), (101, 2),
                           (109, 6), (120, 3), (128, 4), (139, 2), (146, 5), (157, 3), (165, 2), (172, 4)] {
            for y in 10..<90 { for dx in 0..<width { bars[y * 200 + x + dx] = 0 } }
        }
        _ = try dir.write("blank.pgm", Data("P5 200 100 255\n".utf8) + Data(bars))
        let blank = try run(hiding: .zbar, ["scan", "--no-store", "blank.pgm"], in: dir)
        #expect(blank.status == 2, "\(blank.stderr)")
        #expect(blank.stderr.contains("qrseal: error: cannot load libzbar.so.0, which reading codes with zbar needs: "), "\(blank.stderr)")
        #expect(blank.stderr.contains("qrseal: hint: install it: apt-get install libzbar0"), "\(blank.stderr)")
    }

    @Test("without Tesseract, codes are still read; text recognition fails naming libtesseract.so.5", .enabled(if: canHide))
    func tesseractMissing() throws {
        let dir = try TempDir()
        #expect(qrseal(["encode", "-o", dir.path("hello.png"), "hello"]).status == 0)
        let codes = try run(hiding: .tesseract, ["scan", "--no-store", "--raw", "hello.png"], in: dir)
        #expect(codes.status == 0 && codes.stdoutText == "hello\n", "\(codes.stderr)")
        let text = try run(hiding: .tesseract, ["scan", "--no-store", "--text-only", "hello.png"], in: dir)
        #expect(text.status == 2, "\(text.stderr)")
        #expect(text.stderr.hasPrefix("qrseal: error: cannot load libtesseract.so.5, which text recognition needs: "), "\(text.stderr)")
        #expect(text.stderr.contains("qrseal: hint: install it: apt-get install libtesseract5"), "\(text.stderr)")
    }

    @Test("without SQLite, encode and scan --no-store work; a scan that keeps what it reads fails naming libsqlite3.so.0",
          .enabled(if: canHide))
    func sqliteMissing() throws {
        let dir = try TempDir()
        let encode = try run(hiding: .sqlite, ["encode", "-o", "hello.png", "hello"], in: dir)
        #expect(encode.status == 0, "\(encode.stderr)")
        let read = try run(hiding: .sqlite, ["scan", "--no-store", "--raw", "hello.png"], in: dir)
        #expect(read.status == 0 && read.stdoutText == "hello\n", "\(read.stderr)")
        let kept = try run(hiding: .sqlite, ["scan", "--inbox", dir.path("inbox.sqlite"), "hello.png"], in: dir)
        #expect(kept.status == 2, "\(kept.stderr)")
        #expect(kept.stderr.contains("qrseal: error: cannot load libsqlite3.so.0, which the inbox needs: "), "\(kept.stderr)")
        #expect(kept.stderr.contains("qrseal: hint: install it: apt-get install libsqlite3-0"), "\(kept.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("inbox.sqlite")))
    }

    @Test("without libcrypto, a plain encode works; sealing, keygen and scan fail naming libcrypto.so.3 and libssl3",
          .enabled(if: canHide))
    func cryptoMissing() throws {
        let dir = try TempDir()
        let png = try run(hiding: .crypto, ["encode", "-o", "hello.png", "hello"], in: dir)
        #expect(png.status == 0, "\(png.stderr)")
        let keyFile = try dir.write("k.key", qrseal(["keygen"]).stdout)
        // A sheet prints its content's hash: -o x.pdf needs libcrypto as --format pdf does
        // (it used to trap with SIGILL).
        for arguments in [["encode", "--seal", "--key-file", keyFile, "-o", "sealed.png", "secret"], ["keygen"],
                          ["scan", "--no-store", "hello.png"], ["encode", "-o", "sheet.pdf", "hello"],
                          ["encode", "--format", "pdf", "-o", "sheet2.pdf", "hello"]] {
            let r = try run(hiding: .crypto, arguments, in: dir)
            #expect(r.status == 2, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("qrseal: error: cannot load libcrypto.so.3, which sealing, opening and hashing needs: "),
                    "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("qrseal: hint: install it: apt-get install libssl3"), "\(r.stderr)")
        }
        for file in ["sealed.png", "sheet.pdf", "sheet2.pdf"] { #expect(!FileManager.default.fileExists(atPath: dir.path(file))) }
    }

    @Test("doctor says which one is missing and the package that installs it", .enabled(if: canHide))
    func doctor() throws {
        let dir = try TempDir()
        let r = try run(hiding: .zbar, ["doctor"], in: dir)
        let line = try #require(r.stdoutText.split(separator: "\n").first { $0.hasPrefix("  zbar ") }, "\(r.stdoutText)")
        #expect(line.contains("missing: cannot load libzbar.so.0") && line.hasSuffix("(apt-get install libzbar0)"), "\(line)")
        #expect(r.stdoutText.contains("  cairo "), "\(r.stdoutText)")
    }
}
