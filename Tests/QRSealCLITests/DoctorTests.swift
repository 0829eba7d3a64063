import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// `qrseal doctor` on a machine without a camera, and pointed at things that are not one.
@Suite("doctor: cameras, libraries, files")
struct DoctorTests {
    let box = InboxSandbox()

    @Test("no video device: says so, why, and what to do; exit 1",
          .enabled(if: VideoDevices.list().isEmpty, "this machine has a video device"))
    func noCamera() {
        let r = box.run(["doctor"])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("cameras\n  none: no /dev/video* device\naccess\n  user "), "\(r.out)")
        #expect(r.stderr == """
            qrseal: error: no camera: there is no video device (/dev/video*) on this machine
            qrseal: hint: plug in a camera and check that its driver is loaded (a USB webcam uses uvcvideo: lsmod | grep uvcvideo)
            qrseal: hint: in a container or virtual machine, pass the camera through (docker run --device /dev/video0 …)
            qrseal: hint: without a camera, scan recorded frames: ffmpeg -i VIDEO -f yuv4mpegpipe - | qrseal scan --stream -

            """)
    }

    @Test("every library is listed with the version it reports and the file loaded, those opened on first use too")
    func libraries() throws {
        let lines = box.run(["doctor"]).out.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "libraries"))
        let section = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(section.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["zbar", "zxing-cpp", "libqrencode", "OpenSSL", "SQLite", "libpng", "libjpeg-turbo", "Brotli", "Tesseract",
                    "cairo", "giflib", "libtiff", "libwebp", "poppler", "librsvg"])
        let zbar = try #require(section.first)
        #expect(zbar.range(of: #"^  zbar +\d+\.\d+\.\d+ +/\S*libzbar\.so"#, options: .regularExpression) != nil, "\(zbar)")
        #expect(section.allSatisfy { $0.contains("/lib") }, "\(section)")
        let sqlite = try #require(section.first { $0.contains("SQLite") })
        #expect(sqlite.contains(" 3."), "\(sqlite)")
    }

    @Test("where the inbox, keyring and config are, and whether they exist yet")
    func files() throws {
        let before = box.run(["doctor"]).out
        #expect(before.contains("  inbox    \(box.inbox) (not created yet; 'qrseal scan' creates it)"), "\(before)")
        #expect(before.contains("  keyring  \(box.dir.path("data"))/qrseal/keys (no keys yet; 'qrseal keys add FILE' adds one)"))
        #expect(before.contains("  config   \(box.dir.path("config"))/qrseal/config (none)"))
        #expect(before.contains("  engine   \(Engine.executable) (present)"), "\(before)")
        #expect(box.run(["keys", "add", box.keygen()]).status == 0)
        box.scan(box.encode("a.png", "x"))
        let after = box.run(["doctor"]).out
        #expect(after.contains("  keyring  \(box.dir.path("data"))/qrseal/keys (1 key)"), "\(after)")
        #expect(after.contains("  inbox    \(box.inbox) (") && !after.contains("not created yet"))
    }

    @Test("--device checks one path: not a camera, or not there; exit 2", arguments: [
        ("/dev/null", "not a camera: the device is not a video (V4L2) device"),
        ("/dev/video-qrseal-missing", "no such device"),
    ])
    func device(path: String, problem: String) {
        let r = box.run(["doctor", "--device", path])
        #expect(r.status == 2)
        #expect(r.out.hasPrefix("cameras\n  \(path)  \(problem)\n"), "\(r.out)")
        #expect(r.stderr.hasPrefix("qrseal: error: \(path): \(problem)\n"), "\(r.stderr)")
    }

    @Test("doctor is a command like the others: in help, and it takes no arguments")
    func usage() {
        #expect(box.run(["--help"]).out.contains("  doctor        Check what live scanning needs"))
        #expect(box.run(["help", "doctor"]).out.contains("--device PATH"))
        let r = box.run(["doctor", "now"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("qrseal: error: doctor takes no arguments ('now')"))
    }
}
