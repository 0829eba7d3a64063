import FoundationEssentials
import Glibc

/// Where the C and C++ libraries that qrseal cannot make safe from inside run on outside
/// input: the `qrseal-engine` helper process (CEngine's `qrseal_engine.h`).
///
/// libZXing 1.4 keeps its assertions, and a failed one aborts the process that made the
/// call; Tesseract asserts, hangs or grows without bound on damaged data files. So zxing-cpp
/// reads every image, and Tesseract first starts on every data file, in the helper, under a
/// memory limit and with a deadline for each answer. A helper that dies or misses its
/// deadline ends that one request, which reports an `EngineFailure`; the next request
/// starts a new helper. Idle helpers are kept for the next request, one per thread that
/// asks at once.
public enum Engine {
    /// The helper executable. By default the `qrseal-engine` beside this process's own
    /// executable (a build folder), or in `../lib/qrseal/` from it (an installed tree);
    /// a front end installed elsewhere sets it before the first read.
    public static var executable: String {
        get { pool.executable }
        set { pool.executable = newValue }
    }

    /// The default `executable`: the first of the two places that holds a file.
    static func besideThisProcess() -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/usr/bin/qrseal"
        let folder = SystemFiles.directory(of: me)
        let places = [folder + "/qrseal-engine", SystemFiles.directory(of: folder) + "/lib/qrseal/qrseal-engine"]
        return places.first { FileManager.default.isExecutableFile(atPath: $0) } ?? places[0]
    }

    static let pool = EnginePool()
}

/// Why a library running in the engine gave no answer.
public struct EngineFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Cause: Sendable, Hashable {
        /// The helper died: killed by this signal (SIGABRT: a failed assertion), or 0 when it exited.
        case crashed(signal: Int32)
        /// The helper gave no answer in this many seconds, and was killed.
        case timedOut(seconds: Int)
        /// The helper could not be started: why.
        case unavailable(String)
        /// The library refused within the helper: it ran out of memory, or threw.
        case failed(String)
        /// An answer out of shape, or the wire to the helper broke.
        case broken
    }

    /// The library the request was for: "zxing-cpp", "Tesseract".
    public let library: String
    public let cause: Cause

    public init(library: String, cause: Cause) {
        self.library = library
        self.cause = cause
    }

    public var description: String {
        switch cause {
        case .crashed(let signal) where signal == 0:
            return "\(library) ended its helper process"
        case .crashed(let signal):
            return "\(library) crashed (\(Self.name(of: signal))) in its helper process"
        case .timedOut(let seconds):
            return "\(library) gave no answer in \(seconds) s and was stopped"
        case .unavailable(let why):
            return "\(library) could not run: the helper qrseal-engine did not start (\(why))"
        case .failed(let why):
            return "\(library) \(why)"
        case .broken:
            return "\(library)'s helper process answered out of turn and was stopped"
        }
    }

    /// "SIGABRT, a failed assertion" …
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGABRT: return "SIGABRT, a failed assertion"
        case SIGSEGV: return "SIGSEGV, a memory error"
        case SIGBUS: return "SIGBUS, a memory error"
        case SIGFPE: return "SIGFPE, an arithmetic error"
        case SIGILL: return "SIGILL"
        case SIGKILL: return "SIGKILL, likely out of memory"
        default: return "signal \(signal)"
        }
    }
}

/// What went wrong in the engine while one image was read: each failure once, in the order
/// first seen. Passes running side by side add to it.
final class EngineFailures: @unchecked Sendable {
    private let lock = Lock()
    private var seen: [EngineFailure] = []

    func add(_ failure: EngineFailure) {
        lock.lock()
        defer { lock.unlock() }
        if !seen.contains(failure) { seen.append(failure) }
    }

    var all: [EngineFailure] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
