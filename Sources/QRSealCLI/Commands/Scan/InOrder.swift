import Dispatch
import Foundation

/// Runs `work` for each index of `0..<count` on background threads, at most `width` at a
/// time, starting the next as soon as one ends, and hands each result to `body` on the
/// calling thread in index order, as soon as it and all before it are done: many images
/// are read on every core, and what they hold is still printed in the order given.
func inOrder<R: Sendable>(count: Int, width: Int, _ work: @escaping @Sendable (Int) -> R,
                          _ body: (Int, R) -> Void) {
    let slots = (0..<count).map { _ in Slot<R>() }
    let gate = DispatchSemaphore(value: max(1, width))
    DispatchQueue.global().async {
        for i in 0..<count {
            gate.wait()
            DispatchQueue.global().async {
                slots[i].put(work(i))
                gate.signal()
            }
        }
    }
    for i in 0..<count { body(i, slots[i].take()) }
}

/// One result, handed from the thread that made it to the one that waits for it.
private final class Slot<R>: @unchecked Sendable {
    private let condition = NSCondition()
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
