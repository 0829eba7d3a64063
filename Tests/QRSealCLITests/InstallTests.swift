import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// `make install`, `make uninstall` and the .deb of `make deb`, as a person installs them.
@Suite("installing")
struct InstallTests {
    /// The pages of man/, `qrseal.1` and one for each command or family of commands; the
    /// desktop app's own page goes with it.
    static let manPages: [String] = ((try? FileManager.default.contentsOfDirectory(
        atPath: Tools.packageRoot.appendingPathComponent("man").path)) ?? [])
        .filter { $0.hasSuffix(".1") && $0 != "qrseal-desktop.1" }.sorted()

    /// What `make install` puts beside the CLI for the desktop app (its own package in `make deb`).
    static let desktopInstalled = [
        "bin/qrseal-desktop", "share/applications/org.qrseal.Desktop.desktop",
        "share/metainfo/org.qrseal.Desktop.metainfo.xml", "share/icons/hicolor/scalable/apps/org.qrseal.Desktop.svg",
        "share/icons/hicolor/symbolic/apps/org.qrseal.Desktop-symbolic.svg", "share/man/man1/qrseal-desktop.1.gz",
    ]

    static let installed = [
        "bin/qrseal", "lib/qrseal/qrseal-engine", "share/bash-completion/completions/qrseal",
        "share/zsh/site-functions/_qrseal", "share/fish/vendor_completions.d/qrseal.fish",
    ] + manPages.map { "share/man/man1/\($0).gz" }

    func make(_ arguments: [String]) throws -> ToolResult {
        // `-o build`: install the binary these tests run, without building a release one.
        try Tools.run("make", ["--no-print-directory", "-C", Tools.packageRoot.path, "-o", "build",
                               "BIN=" + Tools.qrseal] + arguments)
    }

    @Test("make install puts the binaries, the gzipped man pages, the completions and the desktop app's files under DESTDIR and PREFIX; uninstall removes them")
    func installAndUninstall() throws {
        let dir = try TempDir()
        let prefix = dir.path("stage") + "/opt/qr"
        let r = try make(["install", "DESTDIR=" + dir.path("stage"), "PREFIX=/opt/qr"])
        #expect(r.status == 0, "\(r.stderr)")
        let fm = FileManager.default
        for file in Self.installed + Self.desktopInstalled {
            #expect(fm.fileExists(atPath: prefix + "/" + file), "\(file) missing")
        }
        #expect(fm.isExecutableFile(atPath: prefix + "/bin/qrseal"))
        #expect(fm.isExecutableFile(atPath: prefix + "/bin/qrseal-desktop"))
        let version = try Tools.run(prefix + "/bin/qrseal", ["--version"])
        #expect(version.stdoutText == "qrseal \(Commands.version)\n")
        // The installed qrseal finds its helper in ../lib/qrseal: zxing-cpp reads a Micro QR code.
        let micro = Tools.packageRoot.appendingPathComponent("Tests/Images/symbologies/microqr.png").path
        let scan = try Tools.run(prefix + "/bin/qrseal", ["scan", "--no-store", "--raw", micro])
        #expect(scan.status == 0 && scan.stdoutText == "MICRO 42\n", "\(scan.stderr)")
        #expect(Self.manPages.contains("qrseal.1") && Self.manPages.count > 1, "\(Self.manPages)")
        for page in Self.manPages {
            let gz = try Data(contentsOf: URL(fileURLWithPath: prefix + "/share/man/man1/\(page).gz"))
            let man = try Tools.run("gzip", ["-dc"], input: gz)
            let source = try Data(contentsOf: Tools.packageRoot.appendingPathComponent("man/" + page))
            #expect(man.status == 0 && man.stdout == source, "\(page)")
            let mode = try fm.attributesOfItem(atPath: prefix + "/share/man/man1/\(page).gz")[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(page)")
        }
        let scripts = [("bash", "share/bash-completion/completions/qrseal"), ("zsh", "share/zsh/site-functions/_qrseal"),
                       ("fish", "share/fish/vendor_completions.d/qrseal.fish")]
        for (shell, file) in scripts {
            let written = try Data(contentsOf: URL(fileURLWithPath: prefix + "/" + file))
            #expect(written == qrseal(["completions", shell]).stdout, "\(file)")
            let mode = try fm.attributesOfItem(atPath: prefix + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(file)")
        }

        let u = try make(["uninstall", "DESTDIR=" + dir.path("stage"), "PREFIX=/opt/qr"])
        #expect(u.status == 0, "\(u.stderr)")
        for file in Self.installed + Self.desktopInstalled {
            #expect(!fm.fileExists(atPath: prefix + "/" + file), "\(file) left behind")
        }
    }

    /// The .deb `make deb` built (`make test` builds it first and names it in QRSEAL_DEB).
    static var deb: String {
        if let path = ProcessInfo.processInfo.environment["QRSEAL_DEB"] { return path }
        let arch = (try? Tools.run("dpkg", ["--print-architecture"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? "amd64"
        return Tools.packageRoot.appendingPathComponent(".build/qrseal_\(Commands.version)-1_\(arch).deb").path
    }

    /// The folder the toolchain is installed in (`/opt/swift` for `/opt/swift/usr/bin/swift`).
    static var toolchain: String? {
        guard let swift = Tools.which("swift") else { return nil }
        let real = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
        return real.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    @Test("the .deb unpacked in a scratch root encodes and scans with the Swift toolchain out of reach",
          .enabled(if: Tools.which("dpkg-deb") != nil))
    func debRunsWithoutToolchain() throws {
        guard FileManager.default.fileExists(atPath: Self.deb) else {
            Issue.record("no package at \(Self.deb): run 'make deb' first ('make test' does)")
            return
        }
        let root = try TempDir()
        let x = try Tools.run("dpkg-deb", ["-x", Self.deb, root.url.path])
        #expect(x.status == 0, "\(x.stderr)")
        let bin = root.path("usr/bin/qrseal")
        for file in ["usr/share/bash-completion/completions/qrseal",
                     "usr/share/zsh/vendor-completions/_qrseal", "usr/share/fish/vendor_completions.d/qrseal.fish",
                     "usr/share/doc/qrseal/copyright", "usr/share/doc/qrseal/changelog.Debian.gz"]
            + Self.manPages.map({ "usr/share/man/man1/\($0).gz" }) {
            #expect(FileManager.default.fileExists(atPath: root.path(file)), "\(file) missing from the package")
        }
        let fields = try Tools.run("dpkg-deb", ["-f", Self.deb, "Version", "Depends", "Recommends"]).stdoutText
        #expect(fields.contains("Version: \(Commands.version)-"), "\(fields)")
        let depends = fields.split(separator: "\n").first { $0.hasPrefix("Depends: ") }.map(String.init) ?? ""
        let recommends = fields.split(separator: "\n").first { $0.hasPrefix("Recommends: ") }.map(String.init) ?? ""
        #expect(depends.contains("libqrencode4") && depends.contains("libc6"), "\(fields)")
        // The desktop app is a package of its own: the CLI's pulls no GTK and holds none of it.
        #expect(!depends.contains("libgtk") && !depends.contains("libadwaita"), "\(fields)")
        for file in Self.desktopInstalled {
            #expect(!FileManager.default.fileExists(atPath: root.path("usr/" + file)), "\(file) in the CLI's package")
        }
        // The libraries opened on first use are in no NEEDED list: the package names them itself,
        // Tesseract as a recommendation (only scan --text needs it).
        for library in SharedLibrary.all {
            let field = library == .tesseract ? recommends : depends
            #expect(field.contains(library.package + " (>= "), "\(library.package) in \(fields)")
        }

        // Nothing the loader maps comes from the toolchain, and nothing is missing.
        let ldd = try Tools.run("ldd", [bin]).stdoutText
        #expect(!ldd.contains("not found"), "\(ldd)")
        if let toolchain = Self.toolchain { #expect(!ldd.contains(toolchain), "\(ldd)") }
        #expect(!ldd.contains("libswiftCore") && !ldd.contains("libFoundation"), "\(ldd)")

        var env = Tools.environment(["LD_LIBRARY_PATH": "", "PATH": "/usr/bin:/bin"])
        env["LD_PRELOAD"] = nil
        let work = try TempDir()
        let png = work.path("hello.png")
        let encode = try Tools.run(bin, ["encode", "-o", png, "hello from the package"], environment: env)
        #expect(encode.status == 0, "\(encode.stderr)")
        let scan = try Tools.run(bin, ["scan", "--no-store", "--raw", png], environment: env)
        #expect(scan.status == 0 && scan.stdoutText == "hello from the package\n", "\(scan.stderr)")
        let version = try Tools.run(bin, ["--version"], environment: env)
        #expect(version.status == 0 && version.stdoutText == "qrseal \(Commands.version)\n", "\(version.stderr)")
        // cairo, opened on first use, from the system as the package's Depends installs it.
        let pdf = try Tools.run(bin, ["encode", "--format", "pdf", "-o", work.path("hello.pdf"), "hello"], environment: env)
        #expect(pdf.status == 0, "\(pdf.stderr)")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: work.path("hello.pdf")))) ?? Data()
        #expect(bytes.starts(with: Data("%PDF-".utf8)))
        // The same binary's completions, as the package ships them.
        let shipped = try Data(contentsOf: URL(fileURLWithPath: root.path("usr/share/bash-completion/completions/qrseal")))
        #expect(try Tools.run(bin, ["completions", "bash"], environment: env).stdout == shipped)
    }

    /// The app's package, beside the CLI's.
    static var desktopDeb: String {
        let cli = URL(fileURLWithPath: deb)
        return cli.deletingLastPathComponent()
            .appendingPathComponent(cli.lastPathComponent.replacingOccurrences(of: "qrseal_", with: "qrseal-desktop_")).path
    }

    @Test("the CLI and the app installed together take at most 40 MB, and neither carries Foundation's ICU data",
          .enabled(if: Tools.which("dpkg-deb") != nil))
    func installedSize() throws {
        var total = 0
        for package in [Self.deb, Self.desktopDeb] {
            guard FileManager.default.fileExists(atPath: package) else {
                Issue.record("no package at \(package): run 'make deb' first ('make test' does)")
                return
            }
            let root = try TempDir()
            #expect(try Tools.run("dpkg-deb", ["-x", package, root.url.path]).status == 0)
            let files = FileManager.default.enumerator(atPath: root.url.path)
            while let file = files?.nextObject() as? String {
                let attributes = try FileManager.default.attributesOfItem(atPath: root.path(file))
                guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
                total += (attributes[.size] as? Int) ?? 0
                // ICU's data, which Foundation links in whole (34 MB): the binaries use FoundationEssentials.
                if file.hasPrefix("usr/bin/") {
                    let strings = try Tools.run("grep", ["-c", "icudt", root.path(file)]).stdoutText
                    #expect(strings == "0\n", "\(file) holds ICU data")
                }
            }
            // What apt shows before installing agrees, in KiB.
            let field = try Tools.run("dpkg-deb", ["-f", package, "Installed-Size"]).stdoutText
            #expect(Int(field.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 * 1024 <= 40_000_000 } == true, "\(field)")
        }
        #expect(total <= 40_000_000, "the two packages install \(total) bytes")
    }
}
