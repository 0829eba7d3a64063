import Foundation
import Testing
import TestSupport

/// `qrseal scan` with many files: they are read side by side, but what each holds, and each
/// failure, is printed in the order the files were given.
@Suite("scan: many files keep their order")
struct ScanOrderTests {
    let dir = try! TempDir()

    @Test("codes and errors come out in the order of the arguments, whichever image is read first")
    func order() throws {
        var paths: [String] = []
        var expected: [String] = []
        for i in 0..<9 {
            let path = dir.path("code-\(i).png")
            // Larger and smaller images alternate, so that a later one is done sooner.
            let scale = i % 2 == 0 ? "12" : "2"
            #expect(qrseal(["encode", "--force", "--scale", scale, "-o", path, "code number \(i)"]).status == 0)
            paths.append(path)
            expected.append("\(path): QR-Code: code number \(i)")
            if i == 4 {
                let broken = try dir.write("broken.png", Data("not an image".utf8))
                paths.append(broken)
            }
        }
        let r = qrseal(["scan", "--no-store"] + paths)
        #expect(r.status == 2, "one file is not an image")
        #expect(r.out.split(separator: "\n").map(String.init) == expected)
        #expect(r.stderr.contains("broken.png: not an image"))
    }
}
