import CEngine
import FoundationEssentials
import Glibc

/// The idle `qrseal-engine` helpers (`qe_start`, `qe_stop`), handed out one per request.
final class EnginePool: @unchecked Sendable {
    private let lock = Lock()
    private var idle: [OpaquePointer] = []
    private var path: String?

    /// Helpers kept idle at most: one per thread that reads at once, and a few to spare.
    private static let mostIdle = 4

    var executable: String {
        get {
            lock.lock()
            defer { lock.unlock() }
            if let path { return path }
            let found = Engine.besideThisProcess()
            path = found
            return found
        }
        set {
            lock.lock()
            let old = idle
            idle = []
            path = newValue
            lock.unlock()
            old.forEach { qe_stop($0) }
        }
    }

    /// Runs `body` with a helper of its own: an idle one, or a new one (nil only when there
    /// was no memory to start one). A helper that failed in `body` is stopped; a sound one
    /// goes back to the idle ones.
    func withEngine<T>(_ body: (OpaquePointer) -> T) -> T? {
        let path = executable
        lock.lock()
        let engine = idle.popLast()
        lock.unlock()
        guard let engine = engine ?? path.withCString({ qe_start($0) }) else { return nil }
        let result = body(engine)
        lock.lock()
        if qe_is_usable(engine) != 0, idle.count < Self.mostIdle, path == self.path {
            idle.append(engine)
            lock.unlock()
        } else {
            lock.unlock()
            qe_stop(engine)
        }
        return result
    }

    /// The failure an outcome other than `QE_DONE` stands for.
    static func failure(_ outcome: qe_outcome, of engine: OpaquePointer, library: String,
                        timeout milliseconds: Int32) -> EngineFailure? {
        switch outcome {
        case QE_DONE: return nil
        case QE_CRASHED: return EngineFailure(library: library, cause: .crashed(signal: qe_engine_signal(engine)))
        case QE_TIMED_OUT: return EngineFailure(library: library, cause: .timedOut(seconds: Int(milliseconds + 999) / 1000))
        case QE_UNAVAILABLE:
            let why = qe_engine_error(engine).map { String(cString: $0) } ?? "unknown"
            return EngineFailure(library: library, cause: .unavailable(why))
        default: return EngineFailure(library: library, cause: .broken)
        }
    }
}

extension Engine {
    /// The libZXing file a helper has loaded (`qe_describe`), for `qrseal doctor`; nil when
    /// no helper runs.
    static func loadedZXing() -> String? {
        pool.withEngine { engine -> String? in
            var path = [CChar](repeating: 0, count: 4096)
            guard qe_describe(engine, &path, path.count, 5000) == QE_DONE, path[0] != 0 else { return nil }
            return String(cString: path)
        } ?? nil
    }
}
