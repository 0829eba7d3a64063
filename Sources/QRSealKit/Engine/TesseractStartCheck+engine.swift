import CEngine
import CTesseract
import CLoader
import FoundationEssentials
import Glibc
import Glibc

/// Whether Tesseract's data files start cleanly, found out in a `qrseal-engine` helper of
/// their own (`qe_start_tesseract`) before a `TextRecognizer` starts Tesseract in this
/// process. Tesseract asserts on damaged data (its failed assertion aborts the process that
/// made the call, in the middle of a load that holds a lock), and some damage makes it hang
/// or grow without bound; in the helper, that ends the helper, under a memory limit and a
/// deadline. A data file is checked once per process for as long as it stays the same file
/// (device, inode, size, times), and once at all when `record` names a file where the checks
/// that passed are kept (the CLI's cache folder): the check costs a helper's start of
/// Tesseract, about 50 ms.
enum TesseractStartCheck {
    /// Data files larger than this are refused before Tesseract sees them: Debian's largest
    /// (tessdata_best's) are under 100 MB.
    static let maxDataBytes: Int64 = 512 << 20
    /// How long the helper's start may take: a start takes from 15 ms (`eng`) to a second or
    /// two (large scripts, several languages), so only a hang meets it.
    static let timeoutMilliseconds: Int32 = 30_000

    private static let lock = Lock()
    nonisolated(unsafe) private static var started: Set<[Int64]> = []
    nonisolated(unsafe) private static var recordPath: String?
    /// The record holds at most this many bytes; a longer one starts again.
    static let maxRecordBytes = 64 << 10

    /// A file where the data files that started cleanly are kept by identity (with the
    /// Tesseract version), one line each, so that later processes skip the check; nil (the
    /// default) keeps them for this process only. Created with mode 0600.
    static var record: String? {
        get { lock.lock(); defer { lock.unlock() }; return recordPath }
        set { lock.lock(); recordPath = newValue; lock.unlock() }
    }

    /// Checks the data files of `languages` in `path` (a folder ending in `/`): each a
    /// regular file no larger than `maxDataBytes`, and Tesseract starting on them in the helper.
    static func check(_ languages: [String], path: String) throws(TextRecognitionError) {
        let joined = languages.joined(separator: "+")
        var identity: [Int64] = []
        var total: Int64 = 0
        for name in languages {
            let file = path + name + ".traineddata"
            guard let info = SystemFiles.status(file) else {
                throw .missingLanguage(name: name, package: TextRecognitionError.package(forLanguage: name))
            }
            guard info.st_mode & S_IFMT == S_IFREG else { throw .notADataFile(path: file, why: "not a regular file") }
            guard Int64(info.st_size) <= maxDataBytes else {
                throw .notADataFile(path: file, why: "larger than any data file (\(maxDataBytes >> 20) MiB)")
            }
            total += Int64(info.st_size)
            identity += [Int64(bitPattern: UInt64(info.st_dev)), Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_size),
                         Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec),
                         Int64(info.st_ctim.tv_nsec)]
        }
        // The set of files, and the languages started together, are what was checked.
        identity += joined.utf8.map(Int64.init)
        let version = (TessVersion().map { String(cString: $0) } ?? "unknown")
        // Held through the helper's start: recognizers started side by side wait for one check.
        lock.lock()
        defer { lock.unlock() }
        if started.contains(identity) { return }
        let line = "\(version) " + identity.map(String.init).joined(separator: ",")
        if let recordPath, Self.lines(of: recordPath).contains(where: { $0 == line }) {
            started.insert(identity)
            return
        }
        // A helper of its own: Tesseract's memory stays out of the ones that read codes.
        guard let engine = Engine.executable.withCString({ qe_start($0) }) else {
            throw .engine(EngineFailure(library: "Tesseract", cause: .unavailable("out of memory")))
        }
        defer { qe_stop(engine) }
        var status: Int32 = -1
        let page = samplePage
        let outcome = page.pixels.withUnsafeBufferPointer { pixels in
            qe_start_tesseract(engine, path, joined, pixels.baseAddress, Int32(page.width), Int32(page.height),
                               UInt64(2 << 30) + UInt64(total) * 8, timeoutMilliseconds, &status)
        }
        if let failure = EnginePool.failure(outcome, of: engine, library: "Tesseract", timeout: timeoutMilliseconds) {
            if case .unavailable = failure.cause { throw .engine(failure) }
            throw .initFailed(languages: joined, dataPath: path)
        }
        guard status == 0 else { throw .initFailed(languages: joined, dataPath: path) }
        started.insert(identity)
        if let recordPath { Self.append(line, to: recordPath) }
    }

    /// The lines of the record at `path`; none when it is missing, unreadable or too long.
    private static func lines(of path: String) -> [Substring] {
        guard let bytes = try? SystemFiles.readRegular(path, limit: maxRecordBytes).bytes else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }

    /// Adds `line` to the record at `path` (its folder made 0700 if missing), starting it
    /// again when it has grown past `maxRecordBytes`; a failure only costs a later check.
    private static func append(_ line: String, to path: String) {
        let folder = SystemFiles.directory(of: path)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let size = SystemFiles.status(path).map { Int($0.st_size) } ?? 0
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (size + line.utf8.count >= maxRecordBytes ? O_TRUNC : O_APPEND)
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// A line of large block letters, "HELLO WORLD 2026", black on white: what the helper's
    /// start reads, so that every part of the data a recognition uses is used once.
    static let samplePage: GrayImage = {
        let glyphs: [Character: [String]] = [
            "H": ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
            "E": ["#####", "#....", "#....", "####.", "#....", "#....", "#####"],
            "L": ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
            "O": [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
            "W": ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"],
            "R": ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"],
            "D": ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."],
            "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
            "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
            "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
        ]
        let text = "HELLO WORLD 2026", scale = 4, margin = 24, advance = 6 * scale
        let width = 2 * margin + text.count * advance, height = 2 * margin + 7 * scale
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (n, letter) in text.enumerated() {
            for (row, line) in (glyphs[letter] ?? []).enumerated() {
                for (column, mark) in line.enumerated() where mark == "#" {
                    for y in 0..<scale {
                        let start = (margin + row * scale + y) * width + margin + n * advance + column * scale
                        for x in 0..<scale { pixels[start + x] = 0 }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }()
}
