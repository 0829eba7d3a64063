import FoundationEssentials
import Glibc

/// What lends `TextRecognizer.recognize(_:helper:)` a second recognizer: called on a thread
/// of its own with the function that reads pieces, it calls that function with a
/// recognizer of the same languages and settings, or not at all when it has none.
public typealias TextHelper = @Sendable (_ read: (TextRecognizer) -> Void) -> Void

/// The pieces of one image, handed out one at a time to the threads reading them, and
/// what each read.
final class Pieces: @unchecked Sendable {
    private let lock = Lock()
    private var taken = 0
    private var read: [Result<[TextBlock], TextRecognitionError>?]

    init(count: Int) { read = Array(repeating: nil, count: count) }

    /// The next piece no thread has taken, nil when none is left or a piece failed.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < read.count, !read.contains(where: { if case .failure = $0 { return true }; return false }) else { return nil }
        taken += 1
        return taken - 1
    }

    func set(_ i: Int, _ result: Result<[TextBlock], TextRecognitionError>) {
        lock.lock()
        read[i] = result
        lock.unlock()
    }

    /// What was read, in the pieces' order, up to the first failure.
    func results() -> [Result<[TextBlock], TextRecognitionError>] {
        lock.lock()
        defer { lock.unlock() }
        return read.compactMap { $0 }
    }
}

extension Threads {
    /// A thread started at once running `body`, and a way to wait for its end.
    static func joinable(name: String, _ body: @escaping @Sendable () -> Void) -> JoinableThread {
        let done = JoinableThread()
        start(name: name) {
            body()
            done.finish()
        }
        return done
    }
}

/// The end of a thread, waited for.
final class JoinableThread: @unchecked Sendable {
    private let condition = Condition()
    private var finished = false

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func join() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
