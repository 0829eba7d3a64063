// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "qrseal",
    products: [
        .library(name: "QRSealKit", targets: ["QRSealKit"]),
        .executable(name: "qrseal", targets: ["qrseal"]),
        .executable(name: "qrseal-engine", targets: ["qrseal-engine"]),
        .executable(name: "qrseal-desktop", targets: ["qrseal-desktop"]),
    ],
    targets: [
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        // zbar, SQLite, libcrypto, cairo, giflib, Tesseract, libtiff, libwebp, poppler and librsvg are not linked: CLoader opens each on first use
        // (no pkgConfig here, whose flags would link it; their headers are in /usr/include).
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev", "zlib1g-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLibCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc",
                       providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        // Image files read through Debian's libraries, each opened on first use by CLoader too.
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        // poppler's and librsvg's GLib interfaces, declared in their shims by hand (only the
        // functions read here), so that no GLib header or link flag is needed.
        .systemLibrary(name: "CPoppler", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(name: "CRsvg", providers: [.apt(["librsvg2-dev"])]),
        // Intel's ISA-L: the erasure code of messages split over several symbols.
        .systemLibrary(name: "CISAL", pkgConfig: "libisal",
                       providers: [.apt(["libisal-dev"])]),
        // Tesseract's C API: text recognition beside the codes.
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng"])]),
        // Opens the libraries above when a command first needs one (dlopen), so that start-up
        // does not pay for them: the functions our wrappers call, each resolved from the
        // library's versioned soname (see include/loader.h).
        // Every executable exports tesseract.c's stand-in for the legacy engine's table, which
        // libtesseract then binds to when it is opened (see tesseract.c): a start in a seventh
        // of the CPU time.
        .target(name: "CLoader", dependencies: [],
                linkerSettings: [.unsafeFlags(["-Xlinker",
                                               "--export-dynamic-symbol=_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"])]),
        // Linux's V4L2 header (linux-libc-dev); nothing to link.
        .systemLibrary(name: "CV4L2"),
        // The engine: zxing-cpp and Tesseract's start run in a helper process of their own,
        // so that an assertion, a memory error or a hang in them cannot end or stall qrseal
        // (see include/qrseal_engine.h). CEngine is the caller's side, in QRSealKit.
        .target(name: "CEngine"),
        // zxing-cpp is C++ only: a small shim gives it a C interface (see its header), linked
        // into the helper alone.
        .target(name: "CZXingShim", dependencies: ["CEngine"],
                linkerSettings: [.linkedLibrary("ZXing"), .linkedLibrary("m")]),
        .executableTarget(name: "qrseal-engine", dependencies: ["CEngine", "CZXingShim", "CLoader"]),
        .target(name: "QRSealKit",
                dependencies: ["CEngine", "CLoader", "CQREncode", "CZBar", "CPNG", "CTurboJPEG", "CLibCrypto", "CBrotli", "CSQLite", "CV4L2", "CISAL", "CCairo", "CGIF", "CTesseract",
                             "CTIFF", "CWebP", "CPoppler", "CRsvg"]),
        .target(name: "QRSealCLI", dependencies: ["QRSealKit"]),
        .executableTarget(name: "qrseal", dependencies: ["QRSealCLI"]),
        // GTK 4 and libadwaita (Debian 12: 4.8 and 1.2), for the desktop app alone: the CLI
        // never links them. Its header turns the few macros Swift cannot call into functions.
        .systemLibrary(name: "CGtk", pkgConfig: "libadwaita-1",
                       providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]),
        // The desktop app: `Toolkit/` is the one place that calls GTK; the pages use its
        // Swift types and QRSealKit's pipeline, as the CLI does.
        .target(name: "QRSealDesktop", dependencies: ["QRSealKit", "CGtk"]),
        .executableTarget(name: "qrseal-desktop", dependencies: ["QRSealDesktop"]),
        // zlib, for tests only: some of age's CCTV vectors are stored zlib-compressed.
        .systemLibrary(name: "CZlib", path: "Tests/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // Helpers shared by the test targets: temporary folders, running tools.
        .target(name: "TestSupport", dependencies: ["CZlib"], path: "Tests/Support", exclude: ["scripts"]),
        .testTarget(name: "QRSealKitTests", dependencies: ["QRSealKit", "TestSupport"]),
        .testTarget(name: "QRSealCLITests", dependencies: ["QRSealCLI", "QRSealKit", "TestSupport"]),
    ]
)
