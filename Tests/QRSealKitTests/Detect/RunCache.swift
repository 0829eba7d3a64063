import Synchronization

/// Values worked out once a test run, by name: decoded images, and what a reader or the
/// Detector finds in them, which several tests ask about. Two tests asking at once may both
/// work a value out; the first one kept is the one every later test gets.
final class RunCache<Value: Sendable>: Sendable {
    private let values = Mutex<[String: Value]>([:])

    init() {}

    /// The value kept for `name`, or `make()`'s, kept from now on.
    func value(_ name: String, _ make: () throws -> Value) rethrows -> Value {
        if let value = values.withLock({ $0[name] }) { return value }
        let value = try make()
        return values.withLock { kept in
            if let first = kept[name] { return first }
            kept[name] = value
            return value
        }
    }
}
