import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The prepared copies' cache when the passes of one batch ask for the same product at
/// once: it is made once, by the first to ask, and the others wait for it.
///
/// The threads are made to overlap by the cache's own hook, not by the clock: the first
/// thread stops as it starts making the product and goes on only once the second thread
/// waits for it, or starts making it too (what the cache did before: then the test fails,
/// it does not hang).
@Suite("prepared copies: each made once, however many threads ask at once")
struct PreparedImagesTests {
    typealias Product = PreparedImages.Product

    /// A picture with some texture, so that thresholds, inversion and censuses have work.
    static let image: GrayImage = {
        let matrix = try! QREncoder().encode(.text("prepared once"))
        return matrix.image(scale: 3, margin: 4)
    }()

    /// What the threads did, in order: each product made, and each product waited for.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(Product, making: Bool)] = []
        func add(_ product: Product, making: Bool) { lock.lock(); entries.append((product, making)); lock.unlock() }
        func made(_ product: Product) -> Int {
            lock.lock(); defer { lock.unlock() }
            return entries.filter { $0.0 == product && $0.making }.count
        }
        func waited(_ product: Product) -> Bool {
            lock.lock(); defer { lock.unlock() }
            return entries.contains { $0.0 == product && !$0.making }
        }
        var madeProducts: [Product] {
            lock.lock(); defer { lock.unlock() }
            return entries.filter(\.making).map(\.0)
        }
    }

    /// Runs `first` on a thread of its own and, once it starts making `product`, `second` on
    /// another; the first goes on only when the second waits for `product` or makes it too.
    /// The limits only keep a broken cache from hanging the tests.
    func overlapping<A: Sendable, B: Sendable>(_ prepared: PreparedImages, at product: Product,
                                               _ first: @escaping @Sendable () -> A,
                                               _ second: @escaping @Sendable () -> B) -> (Log, A?, B?) {
        let log = Log()
        let firstMaking = DispatchSemaphore(value: 0), secondArrived = DispatchSemaphore(value: 0)
        let started = Log()
        prepared.observe = { p, making in
            log.add(p, making: making)
            guard p == product else { return }
            if making && started.made(product) == 0 {
                started.add(product, making: true)
                firstMaking.signal()
                if secondArrived.wait(timeout: .now() + 60) == .timedOut { Issue.record("the second thread never came") }
            } else {
                secondArrived.signal()
            }
        }
        let results = Results<A, B>()
        let done = DispatchGroup()
        done.enter()
        Thread { results.setFirst(first()); done.leave() }.start()
        #expect(firstMaking.wait(timeout: .now() + 60) == .success, "the first thread never made \(product)")
        done.enter()
        Thread { results.setSecond(second()); done.leave() }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "the threads did not finish")
        return (log, results.first, results.second)
    }

    final class Results<A, B>: @unchecked Sendable {
        private let lock = NSLock()
        private var a: A?, b: B?
        func setFirst(_ value: A) { lock.lock(); a = value; lock.unlock() }
        func setSecond(_ value: B) { lock.lock(); b = value; lock.unlock() }
        var first: A? { lock.lock(); defer { lock.unlock() }; return a }
        var second: B? { lock.lock(); defer { lock.unlock() }; return b }
    }

    /// Whether two arrays share one buffer: the same copy, not two equal ones.
    static func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    @Test("two passes asking for one copy at once get the same copy, made once")
    func oneCopy() throws {
        let prepared = PreparedImages(Self.image, maxPixels: ImageDecoder.defaultMaxPixels)
        let steps: [Step] = [.threshold(0.1)]
        let (log, a, b) = overlapping(prepared, at: .copy(steps), { prepared.image(for: steps)?.0 },
                                      { prepared.image(for: steps)?.0 })
        #expect(log.made(.copy(steps)) == 1)
        #expect(log.waited(.copy(steps)))
        let first = try #require(a ?? nil), second = try #require(b ?? nil)
        #expect(Self.sameStorage(first.pixels, second.pixels))
        #expect(first == PreparedImages(Self.image, maxPixels: ImageDecoder.defaultMaxPixels).image(for: steps)?.0)
    }

    @Test("a copy asked for while another thread makes its parent waits for the parent: each made once, no deadlock")
    func parentUnderway() throws {
        let prepared = PreparedImages(Self.image, maxPixels: ImageDecoder.defaultMaxPixels)
        let parent: [Step] = [.pad(0.1)], child: [Step] = [.pad(0.1), .invert]
        let (log, a, b) = overlapping(prepared, at: .copy(parent), { prepared.image(for: parent)?.0 },
                                      { prepared.image(for: child)?.0 })
        #expect(log.made(.copy(parent)) == 1)
        #expect(log.made(.copy(child)) == 1)
        let padded = try #require(a ?? nil), inverted = try #require(b ?? nil)
        #expect(inverted == padded.inverted())
        // Asked again, both come from the cache.
        #expect(Self.sameStorage(try #require(prepared.image(for: child)).0.pixels, inverted.pixels))
        #expect(log.madeProducts.count == 2)
    }

    @Test("the runs and a census asked for while the binarized copy is made wait for it: each product made once")
    func binarizedUnderway() throws {
        let prepared = PreparedImages(Self.image, maxPixels: ImageDecoder.defaultMaxPixels)
        let steps: [Step] = [.invert]
        let (log, runs, census) = overlapping(prepared, at: .binarized(steps), { prepared.rowRuns(for: steps) },
                                              { prepared.census(for: steps, slack: 0.5) })
        #expect(runs != nil && census != nil)
        for product: Product in [.copy(steps), .binarized(steps), .runs(steps), .census(steps, slack: 0.5)] {
            #expect(log.made(product) == 1, "\(product)")
        }
        #expect(log.waited(.binarized(steps)))
        let dark = try #require(prepared.binarized(for: steps))
        #expect(dark == Binarizer.binarized(Self.image.inverted()))
    }

    @Test("many threads asking for the copies of a whole batch at once make each product once")
    func wholeBatch() {
        let prepared = PreparedImages(Self.image, maxPixels: ImageDecoder.defaultMaxPixels)
        let log = Log()
        prepared.observe = { log.add($0, making: $1) }
        let wanted: [[Step]] = [[.threshold(0.1)], [.pad(0.1)], [.pad(0.1), .invert], [.pad(0.1), .threshold(0.1)], [.invert]]
        DispatchQueue.concurrentPerform(iterations: 4 * wanted.count) { i in
            let steps = wanted[i % wanted.count]
            _ = prepared.rowRuns(for: steps)
            _ = prepared.census(for: steps, slack: 0.5)
        }
        let made = log.madeProducts
        #expect(made.count == Set(made).count, "made twice: \(made.filter { p in made.filter { $0 == p }.count > 1 })")
        // Every copy, its binarized pixels, runs and census: four products per copy asked for.
        #expect(Set(made).count == 4 * wanted.count)
    }
}
