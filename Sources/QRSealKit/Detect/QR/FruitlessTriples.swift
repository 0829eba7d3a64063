import FoundationEssentials
import Glibc

/// Triples of finder patterns that `QRLocator` tried on one prepared copy and read nothing
/// from. What a triple reads depends only on its three refined patterns and the copy, so
/// a later run of the locator over the same copy (the wide one, whose census holds the
/// narrow one's patterns and more) skips them instead of laying their grids again.
final class FruitlessTriples: @unchecked Sendable {
    private struct Key: Hashable { let values: [Double] }
    private var keys: Set<Key> = []
    private let lock = Lock()

    private static func key(_ t: FinderTriple) -> Key {
        Key(values: t.patterns.flatMap { [$0.center.x, $0.center.y, $0.module] })
    }

    func contains(_ triple: FinderTriple) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return keys.contains(Self.key(triple))
    }

    /// How many triples are recorded.
    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return keys.count
    }

    func insert(_ triple: FinderTriple) {
        lock.lock(); keys.insert(Self.key(triple)); lock.unlock()
    }
}
