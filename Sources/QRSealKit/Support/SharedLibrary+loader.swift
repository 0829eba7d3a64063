import CLoader

/// A C library that qrseal opens the first time a command needs it rather than at start-up
/// (CLoader: `dlopen` of its versioned soname, then `dlsym` of each function the wrapper
/// calls), since loading it and its own dependencies would cost every process, even one
/// that never uses it (bench/startup.py measures what one process costs).
///
/// Its wrapper calls the library's functions as if it were linked; the first call opens
/// it. `load()` opens it too, and is how a wrapper turns a missing library into an error
/// before calling: a function called while the library cannot be loaded returns its
/// failure value (NULL, an error status) and does nothing.
public struct SharedLibrary: Sendable, Hashable, CustomStringConvertible {
    /// The project's name, as `qrseal doctor` shows it.
    public let name: String
    /// The Debian package that installs it.
    public let package: String
    /// What needs it, for the error message: "reading with zbar".
    public let neededFor: String
    private let code: UInt32

    private var library: qrseal_library { qrseal_library(rawValue: code) }

    /// zbar, for the zbar passes of image scans.
    public static let zbar = SharedLibrary("zbar", package: "libzbar0", for: "reading codes with zbar", QRSEAL_LIBRARY_ZBAR)
    /// Tesseract, for text recognition.
    public static let tesseract = SharedLibrary("Tesseract", package: "libtesseract5", for: "text recognition",
                                                QRSEAL_LIBRARY_TESSERACT)
    /// cairo, for PDF sheets and the labels of animated GIFs.
    public static let cairo = SharedLibrary("cairo", package: "libcairo2", for: "drawing PDF sheets and labels",
                                            QRSEAL_LIBRARY_CAIRO)
    /// giflib, for animated GIFs and reading GIF files.
    public static let gif = SharedLibrary("giflib", package: "libgif7", for: "reading and writing GIFs", QRSEAL_LIBRARY_GIF)
    /// OpenSSL's libcrypto, for sealing, opening and hashing.
    public static let crypto = SharedLibrary("OpenSSL (libcrypto)", package: "libssl3",
                                             for: "sealing, opening and hashing", QRSEAL_LIBRARY_CRYPTO)
    /// SQLite, for the inbox.
    public static let sqlite = SharedLibrary("SQLite", package: "libsqlite3-0", for: "the inbox", QRSEAL_LIBRARY_SQLITE)

    /// libtiff, for reading TIFF files.
    public static let tiff = SharedLibrary("libtiff", package: "libtiff6", for: "reading TIFF images", QRSEAL_LIBRARY_TIFF)
    /// libwebp, for reading WebP files.
    public static let webp = SharedLibrary("libwebp", package: "libwebp7", for: "reading WebP images", QRSEAL_LIBRARY_WEBP)
    /// poppler's GLib interface, for drawing the pages of PDF files to read.
    public static let poppler = SharedLibrary("poppler", package: "libpoppler-glib8", for: "reading PDF files",
                                              QRSEAL_LIBRARY_POPPLER)
    /// librsvg, for drawing SVG files to read.
    public static let rsvg = SharedLibrary("librsvg", package: "librsvg2-2", for: "reading SVG images", QRSEAL_LIBRARY_RSVG)

    public static let all: [SharedLibrary] = [.zbar, .sqlite, .crypto, .tesseract, .cairo, .gif, .tiff, .webp, .poppler, .rsvg]

    private init(_ name: String, package: String, for purpose: String, _ library: qrseal_library) {
        self.name = name
        self.package = package
        self.neededFor = purpose
        self.code = library.rawValue
    }

    /// The file the loader looks for: `libzbar.so.0` …
    public var soname: String { String(cString: qrseal_library_soname(library)) }

    public var description: String { soname }

    /// Opens the library unless it is open already (`qrseal_library_load`, once per
    /// process, thread-safe); throws with the loader's reason when it cannot be opened.
    public func load() throws(LibraryError) {
        guard qrseal_library_load(library) != 0 else { return }
        let reason = qrseal_library_error(library).map { String(cString: $0) } ?? "not loaded"
        throw .unavailable(self, reason: reason)
    }

    /// Why an earlier first use could not open it (`qrseal_library_failure`); nil when it
    /// opened or was never needed. Never opens it: for a caller whose wrapper went on
    /// without it (a scan reads with zxing-cpp alone when zbar is missing).
    public var failure: LibraryError? {
        qrseal_library_failure(library).map { .unavailable(self, reason: String(cString: $0)) }
    }
}

/// A library opened on first use could not be opened.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `reason` is the dynamic loader's (`dlerror`): a file not found, too short, a missing symbol.
    case unavailable(SharedLibrary, reason: String)

    public var library: SharedLibrary {
        switch self { case .unavailable(let library, _): library }
    }

    public var description: String {
        switch self {
        case let .unavailable(library, reason):
            "cannot load \(library.soname), which \(library.neededFor) needs: \(reason)"
        }
    }
}
