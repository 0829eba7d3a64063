import FoundationEssentials
import Glibc
import QRSealKit

/// Runs `work` for each index of `0..<count` on background threads, at most `width` at a
/// time, starting the next as soon as one ends, and hands each result to `body` on the
/// calling thread in index order, as soon as it and all before it are done: many images
/// are read on every core, and what they hold is still printed in the order given.
///
/// The workers are threads of their own, not Dispatch's: `work` waits for the pages it hands
/// to Dispatch, and a Dispatch thread that waits holds one of the few Dispatch keeps per core,
/// so that on two cores the pages of two files waited a second each for Dispatch to notice
/// and add a thread.
func inOrder<R: Sendable>(count: Int, width: Int, _ work: @escaping @Sendable (Int) -> R,
                          _ body: (Int, R) -> Void) {
    let slots = (0..<count).map { _ in Slot<R>() }
    let next = NextIndex(count: count)
    for _ in 0..<min(max(1, width), count) {
        Threads.start(name: "qrseal scan") {
            while let i = next.take() { slots[i].put(work(i)) }
        }
    }
    for i in 0..<count { body(i, slots[i].take()) }
}

/// The indices not yet taken, handed out one at a time to whichever worker asks.
private final class NextIndex: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0
    private let count: Int
    init(count: Int) { self.count = count }

    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// One result, handed from the thread that made it to the one that waits for it.
private final class Slot<R>: @unchecked Sendable {
    private let condition = Condition()
    private var value: R?

    func put(_ result: R) {
        condition.lock()
        value = result
        condition.signal()
        condition.unlock()
    }

    func take() -> R {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
