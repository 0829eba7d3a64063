import Dispatch
import FoundationEssentials
import Glibc

/// `transform` applied to every element on as many threads as there are cores, results in order.
func concurrentMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    if items.count <= 1 { return items.map(transform) }
    let slots = ResultSlots<R>(count: items.count)
    DispatchQueue.concurrentPerform(iterations: items.count) { i in
        slots.set(i, transform(items[i]))
    }
    return slots.values()
}

/// Results written by concurrent iterations, each into its own slot.
private final class ResultSlots<R>: @unchecked Sendable {
    private var slots: [R?]
    private let lock = Lock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: R) { lock.lock(); slots[i] = value; lock.unlock() }
    func values() -> [R] { lock.lock(); defer { lock.unlock() }; return slots.map { $0! } }
}
