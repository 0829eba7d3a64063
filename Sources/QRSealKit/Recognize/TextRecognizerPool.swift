import FoundationEssentials
import Glibc

/// Text recognizers of one set of settings, made once and lent to the threads that read
/// images side by side.
///
/// Starting Tesseract (its language data) takes about as long as recognising a camera
/// frame, so recognizers start on threads of their own (`start`) while the caller reads,
/// decodes and prepares its first image; `take` waits for one that is starting rather than
/// start another. A page read in pieces shares them with a second recognizer of the pool
/// (`recognize`).
public final class TextRecognizerPool: @unchecked Sendable {
    public let languages: [String]
    public let dataPath: String
    public let layout: TextLayout
    public let minConfidence: Double
    /// As `TextRecognizer.maxPixels`: larger images are refused or shrunk when prepared.
    public let maxPixels: Int
    /// As `TextRecognizer.timeBudget`; nil for its default.
    public let timeBudget: Double?

    private let lock = Condition()
    private var idle: [TextRecognizer] = []
    /// How many recognizers are still starting, each on its own thread, and the failure of
    /// the first that failed.
    private var starting = 0
    private var startFailure: TextRecognitionError?

    /// A pool that starts nothing yet: recognizers are made by `start` or on demand by `take`.
    public init(languages: [String] = ["eng"], dataPath: String = TextRecognizer.defaultDataPath, layout: TextLayout = .page,
                minConfidence: Double = 0, maxPixels: Int = TextRecognizer.defaultMaxPixels, timeBudget: Double? = nil) {
        self.languages = languages
        self.dataPath = dataPath
        self.layout = layout
        self.minConfidence = minConfidence
        self.maxPixels = maxPixels
        self.timeBudget = timeBudget
    }

    /// Starts `count` recognizers, each on a thread of its own; `take` and `finish` wait for
    /// them. A failure to start is thrown by the `take` that finds no recognizer ready.
    public func start(_ count: Int) {
        lock.lock()
        starting += count
        lock.unlock()
        for _ in 0..<count {
            Threads.start(name: "qrseal text start") { [self] in
                let made = Result { () throws(TextRecognitionError) in try makeRecognizer() }
                lock.lock()
                switch made {
                case .success(let recognizer): idle.append(recognizer)
                case .failure(let error): startFailure = startFailure ?? error
                }
                starting -= 1
                lock.broadcast()
                lock.unlock()
            }
        }
    }

    /// An idle recognizer, one being started once it has, or a new one; give it back with `give`.
    public func take() throws(TextRecognitionError) -> TextRecognizer {
        lock.lock()
        while starting > 0, idle.isEmpty { lock.wait() }
        let ready = idle.popLast()
        let failure = startFailure
        lock.unlock()
        if let ready { return ready }
        if let failure { throw failure }
        return try makeRecognizer()
    }

    /// Puts `recognizer` back, for the next `take`.
    public func give(_ recognizer: TextRecognizer) {
        lock.lock()
        idle.append(recognizer)
        lock.broadcast()
        lock.unlock()
    }

    /// Waits for the recognizers still starting, so that the process can end: Tesseract's
    /// globals are destroyed at exit, under a thread still inside its start.
    public func finish() {
        lock.lock()
        while starting > 0 { lock.wait() }
        lock.unlock()
    }

    /// Whether a recognizer is still starting.
    public var isStarting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return starting > 0
    }

    /// The text blocks of one image, on whichever thread calls it, `zones` (the codes found
    /// in it, with their quiet zones) left out, read with a recognizer of the pool.
    public func recognize(_ image: GrayImage, excluding zones: [Region] = []) throws(TextRecognitionError) -> [TextBlock] {
        let prepared = try TextRecognizer.prepare(image, excluding: zones, maxPixels: maxPixels)
        let recognizer = try take()
        defer { give(recognizer) }
        return try recognize(prepared, with: recognizer)
    }

    /// The text blocks of a prepared image, read with `recognizer` (taken from the pool). A
    /// page read in pieces shares them with a second recognizer, an idle one or one started
    /// for it on the helper's thread while this one reads (`TextRecognizer.recognize(_:helper:)`).
    public func recognize(_ prepared: PreparedText, with recognizer: TextRecognizer) throws(TextRecognitionError) -> [TextBlock] {
        var helper: TextHelper?
        if prepared.pieces(layout: layout) > 1 {
            helper = { [self] read in
                let other: TextRecognizer
                do { other = try take() } catch { return }
                read(other)
                give(other)
            }
        }
        return try recognizer.recognize(prepared, helper: helper)
    }

    private func makeRecognizer() throws(TextRecognitionError) -> TextRecognizer {
        let recognizer = try TextRecognizer(languages: languages, dataPath: dataPath, layout: layout,
                                            minConfidence: minConfidence, maxPixels: maxPixels)
        recognizer.timeBudget = timeBudget
        return recognizer
    }
}
