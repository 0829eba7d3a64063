// What every fuzz target shares: the input as bytes, and a check that stops the run with a
// message when an invariant fails (libFuzzer then saves the input as a crash).

/// The fuzzer's input copied into an array.
func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Traps with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}
