import Glibc

/// One C library this process uses, as loaded at run time.
public struct LinkedLibrary: Sendable, Equatable {
    /// The project's name: `zbar`, `OpenSSL` …
    public let name: String
    /// The version the library reports about itself, else the one in its file name; nil
    /// when the library is not loaded.
    public let version: String?
    /// The shared object the dynamic linker loaded, links resolved; nil when not loaded.
    public let path: String?
    /// Why a library opened on first use (`SharedLibrary`) could not be opened.
    public var missing: LibraryError? = nil
}

/// The C libraries qrseal links against, as the running process actually loaded them,
/// which may differ from the headers it was built with (`qrseal doctor` shows them). Those
/// opened on first use (`SharedLibrary`) are opened first, so that they are listed too.
///
/// Versions are asked of the libraries themselves through `dlsym`, so that no layer needs
/// to import another layer's C module for this; the loaded files come from `/proc/self/maps`.
public enum LinkedLibraries {
    private struct Known: Sendable {
        let name: String
        /// The file name's start, up to and including ".so".
        let file: String
        var onDemand: SharedLibrary? = nil
        let version: @Sendable () -> String?
    }

    private static let known: [Known] = [
        Known(name: "zbar", file: "libzbar.so", onDemand: .zbar) {
            typealias F = @convention(c) (UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?,
                                          UnsafeMutablePointer<UInt32>?) -> Int32
            guard let f: F = symbol("zbar_version") else { return nil }
            var major: UInt32 = 0, minor: UInt32 = 0, patch: UInt32 = 0
            _ = f(&major, &minor, &patch)
            return "\(major).\(minor).\(patch)"
        },
        Known(name: "zxing-cpp", file: "libZXing.so") { nil },
        Known(name: "libqrencode", file: "libqrencode.so") {
            return versionText("QRcode_APIVersionString")
        },
        Known(name: "OpenSSL (libcrypto)", file: "libcrypto.so", onDemand: .crypto) {
            typealias F = @convention(c) (Int32) -> UnsafePointer<CChar>?
            // OPENSSL_VERSION_STRING (6): the bare number, such as "3.0.17".
            return (symbol("OpenSSL_version") as F?).flatMap { $0(6) }.map { String(cString: $0) }
        },
        Known(name: "SQLite", file: "libsqlite3.so", onDemand: .sqlite) {
            return versionText("sqlite3_libversion")
        },
        Known(name: "libpng", file: "libpng16.so") {
            typealias F = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
            return (symbol("png_get_libpng_ver") as F?).flatMap { $0(nil) }.map { String(cString: $0) }
        },
        Known(name: "libjpeg-turbo (TurboJPEG)", file: "libturbojpeg.so") {
            // TurboJPEG has no version call; its API generation tells 3.x from 2.x.
            let api = (symbol("tj3Init") as (@convention(c) () -> Void)?) != nil ? "3" : "2"
            return "\(api).x (TurboJPEG API \(api))"
        },
        Known(name: "Brotli (encoder)", file: "libbrotlienc.so") {
            typealias F = @convention(c) () -> UInt32
            guard let f: F = symbol("BrotliEncoderVersion") else { return nil }
            let v = f()
            return "\(v >> 24).\((v >> 12) & 0xFFF).\(v & 0xFFF)"
        },
        Known(name: "Tesseract", file: "libtesseract.so", onDemand: .tesseract) {
            return versionText("TessVersion")
        },
        Known(name: "cairo", file: "libcairo.so", onDemand: .cairo) {
            return versionText("cairo_version_string")
        },
        // giflib has no version call: its file name gives it.
        Known(name: "giflib", file: "libgif.so", onDemand: .gif) { nil },
        Known(name: "libtiff", file: "libtiff.so", onDemand: .tiff) {
            // "LIBTIFF, Version 4.5.0\nCopyright …": the number alone.
            let text = versionText("TIFFGetVersion")
            return text?.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
        },
        Known(name: "libwebp", file: "libwebp.so", onDemand: .webp) {
            typealias F = @convention(c) () -> Int32
            guard let f: F = symbol("WebPGetDecoderVersion") else { return nil }
            let v = f()
            return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
        },
        Known(name: "poppler (GLib)", file: "libpoppler-glib.so", onDemand: .poppler) {
            return versionText("poppler_get_version")
        },
        // librsvg's version is in variables, not a call; its file name gives its library version.
        Known(name: "librsvg", file: "librsvg-2.so", onDemand: .rsvg) { nil },
    ]

    /// Every library qrseal may use, in a fixed order; those not loaded have no path or version.
    public static func all() -> [LinkedLibrary] {
        var missing: [String: LibraryError] = [:]
        for lib in known {
            guard let onDemand = lib.onDemand else { continue }
            do { try onDemand.load() } catch { missing[lib.name] = error }
        }
        // zxing-cpp is loaded by the engine's helper, not here.
        let loaded = loadedObjects() + [Engine.loadedZXing()].compactMap { $0 }
        return known.map { lib in
            guard let path = loaded.first(where: { fileName($0).hasPrefix(lib.file) }) else {
                return LinkedLibrary(name: lib.name, version: nil, path: nil, missing: missing[lib.name])
            }
            let resolved = realPath(path) ?? path
            let fromFile = fileName(resolved).dropFirst(lib.file.count).drop { $0 == "." }
            return LinkedLibrary(name: lib.name, version: lib.version() ?? (fromFile.isEmpty ? "unknown" : String(fromFile)),
                                 path: resolved)
        }
    }

    /// What a library's version call that takes nothing and answers a C string says.
    private static func versionText(_ name: String) -> String? {
        typealias F = @convention(c) () -> UnsafePointer<CChar>?
        return (symbol(name) as F?).flatMap { $0() }.map { String(cString: $0) }
    }

    /// `dlsym(RTLD_DEFAULT, name)` as a function of type `F`.
    private static func symbol<F>(_ name: String) -> F? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: F.self)
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The paths of the shared objects mapped into this process, from `/proc/self/maps`.
    private static func loadedObjects() -> [String] {
        guard let file = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(file) }
        var paths: [String] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // The path is the sixth field and starts with "/"; it may hold spaces.
            guard let slash = text.firstIndex(of: "/") else { continue }
            let path = String(text[slash...].prefix { $0 != "\n" })
            if path.contains(".so"), !paths.contains(path) { paths.append(path) }
        }
        return paths
    }
}
