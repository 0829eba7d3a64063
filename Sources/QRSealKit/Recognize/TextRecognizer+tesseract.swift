import CLoader
import CTesseract
import FoundationEssentials
import Glibc
import Glibc

/// Recognises text in gray images with Tesseract's C API (`tesseract/capi.h`).
///
/// Owns one `TessBaseAPI`, which is not thread-safe: one thread at a time may use a
/// recognizer (it may be handed from thread to thread); recognise several images side by
/// side with several recognizers. Tesseract's own OpenMP
/// threads are the caller's to limit (`OMP_THREAD_LIMIT=1` in the environment before the
/// process starts), as the library never touches the environment.
public final class TextRecognizer: @unchecked Sendable {
    /// Where Debian's `tesseract-ocr-*` packages put their `NAME.traineddata` files.
    public static let defaultDataPath = "/usr/share/tesseract-ocr/5/tessdata"
    /// Images larger than this are shrunk to fit before recognition, or refused when their text
    /// would become too small to read (`TextPreparation`).
    public static let defaultMaxPixels = 16_000_000

    public let languages: [String]
    public let dataPath: String
    public var layout: TextLayout
    /// Words below this confidence (0–100) are left out, and lines and blocks left empty with them.
    public var minConfidence: Double
    public var maxPixels: Int
    /// Seconds one image's recognition may take before Tesseract is stopped and the image
    /// fails with `timeLimitExceeded` (no partial text is given); nil for
    /// `defaultTimeBudget(pixels:)`.
    public var timeBudget: Double?
    private let handle: OpaquePointer

    /// Starts Tesseract (`TessBaseAPICreate`, `TessBaseAPIInit2` with `OEM_LSTM_ONLY`) with
    /// `languages` from `dataPath`, after checking that each has its data file there and that
    /// they start cleanly in a helper process (`TesseractStartCheck`): Tesseract's start
    /// aborts, hangs or grows without bound on some damaged data, which must not happen in
    /// this one. Only the LSTM engine is started, the one Debian's data files hold, without
    /// the legacy engine's table of ambiguities, which it never reads
    /// (`skipsLegacyAmbiguities`). Data Tesseract refuses is `initFailed`.
    public init(languages: [String] = ["eng"], dataPath: String = TextRecognizer.defaultDataPath,
                layout: TextLayout = .page, minConfidence: Double = 0,
                maxPixels: Int = TextRecognizer.defaultMaxPixels) throws(TextRecognitionError) {
        let path = try Self.checkLanguages(languages, dataPath: dataPath)
        try TesseractStartCheck.check(languages, path: path)
        guard !languages.isEmpty, let handle = TessBaseAPICreate() else { throw .initFailed(languages: "", dataPath: path) }
        // Tesseract's messages ("Estimating resolution as …") would go to standard error.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let joined = languages.joined(separator: "+")
        guard qrseal_tesseract_start(UnsafeMutableRawPointer(handle), path, joined) == 0 else {
            TessBaseAPIDelete(handle)
            throw .initFailed(languages: joined, dataPath: path)
        }
        self.handle = handle
        self.languages = languages
        self.dataPath = path
        self.layout = layout
        self.minConfidence = minConfidence
        self.maxPixels = maxPixels
    }

    /// A file where the data files that started cleanly in the helper process are kept, so
    /// that later processes skip that check (`TesseractStartCheck`); nil keeps them for this
    /// process only. The front end chooses it (the CLI: its cache folder).
    public static var checkedStarts: String? {
        get { TesseractStartCheck.record }
        set { TesseractStartCheck.record = newValue }
    }

    /// Checks that each of `languages` is a language's name with its data file in
    /// `dataPath`, and opens Tesseract's library, as the initializer does first, without
    /// starting Tesseract: a caller that starts it on another thread reports a missing
    /// language or library at once. Returns the folder with a final `/`.
    @discardableResult
    public static func checkLanguages(_ languages: [String], dataPath: String) throws(TextRecognitionError) -> String {
        let path = dataPath.hasSuffix("/") || dataPath.isEmpty ? dataPath : dataPath + "/"
        for name in languages {
            guard Self.isLanguageName(name) else { throw .badLanguage(name) }
            guard SystemFiles.status(path + name + ".traineddata") != nil else {
                throw .missingLanguage(name: name, package: TextRecognitionError.package(forLanguage: name))
            }
        }
        do { try SharedLibrary.tesseract.load() } catch { throw .library(error) }
        return path
    }

    /// Whether the Tesseracts started in this process skipped the legacy engine's table of
    /// universal ambiguities (CLoader's stand-in for `UnicharAmbigs::LoadUniversal`, bound
    /// when libtesseract is opened): most of a start's time, read by no LSTM recognition.
    /// False before the first start, or when libtesseract bound its own function (the same
    /// words, read after a slower start).
    public static var skipsLegacyAmbiguities: Bool { qrseal_tesseract_skipped_ambiguities() != 0 }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Binarizes each image with Sauvola's local threshold (`thresholding_method` 2) instead
    /// of one Otsu threshold for the whole image, from now on: a camera's frame, where paper,
    /// signs and background each have their own grey, loses text to a single threshold.
    public func useLocalThreshold() {
        _ = TessBaseAPISetVariable(handle, "thresholding_method", "2")
    }

    /// Letters, digits and `_` (`eng`, `chi_sim`), as Tesseract's data files are named.
    static func isLanguageName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    /// The languages with a data file in `dataPath`, sorted (`osd`, orientation data, left out).
    public static func installedLanguages(dataPath: String = defaultDataPath) -> [String] {
        SystemFiles.stems(in: dataPath, suffix: ".traineddata").filter { $0 != "osd" && isLanguageName($0) }
    }

    /// The text blocks in `image` (Tesseract on the whole page or, in sparse-text mode, on
    /// each `TextRegions` rectangle, as `read` does), boxes in `image`'s pixels.
    /// `excluding` are rectangles painted white first: the codes read in the image, each
    /// with its quiet zone (`Detection.quietZone`), so that their modules are not taken for letters.
    public func recognize(_ image: GrayImage, excluding zones: [Region] = []) throws(TextRecognitionError) -> [TextBlock] {
        try recognize(try Self.prepare(image, excluding: zones, maxPixels: maxPixels))
    }

    /// `image` made ready for `recognize(_:)`: `zones` painted white, light evened out, its
    /// letters measured, scaled and turned level (`TextPreparation`). Needs no recognizer,
    /// so that it can run while one starts on another thread; `maxPixels` as the
    /// recognizer's, which refuses or shrinks a huge image here.
    public static func prepare(_ image: GrayImage, excluding zones: [Region] = [],
                               maxPixels: Int = defaultMaxPixels) throws(TextRecognitionError) -> PreparedText {
        var image = image
        for zone in zones { image.paintWhite(zone) }
        // Tesseract refuses images this small, with a message of its own.
        guard image.width >= 8, image.height >= 8 else { return PreparedText(preparation: nil, width: image.width, height: image.height) }
        let prepared = try TextPreparation(image, maxPixels: maxPixels)
        return PreparedText(preparation: prepared, width: image.width, height: image.height)
    }

    /// The text blocks of a prepared image, boxes in the input's pixels.
    ///
    /// With `helper`, when the image is read in several pieces (`PreparedText.pieces`), a
    /// thread of its own calls `helper` with a function that reads pieces with the
    /// recognizer it is given (one the caller has, or starts there, at the same settings),
    /// while this thread reads the others: each thread takes the next piece left, so a page
    /// of lines is read on two cores in about half the time, the same words in the same
    /// order. `helper` gives its recognizer back when that function returns; when it has
    /// none to give, this thread reads every piece.
    public func recognize(_ text: PreparedText, helper: TextHelper? = nil) throws(TextRecognitionError) -> [TextBlock] {
        guard let prepared = text.preparation else { return [] }
        let page = prepared.image
        guard page.width >= 8, page.height >= 8 else { return [] }
        let mode = pageMode(prepared.measure)
        let budget = Budget(seconds: timeBudget ?? Self.defaultTimeBudget(pixels: page.width * page.height))
        let bands = Self.bands(prepared, sparse: mode == PSM_SPARSE_TEXT, split: helper != nil)
        let areas = bands.flatMap { $0 }
        let pieces = Pieces(count: areas.count)
        let shared = areas.count > 1 ? helper.map { helper in
            Threads.joinable(name: "qrseal text piece") {
                helper { other in
                    while let i = pieces.next() { pieces.set(i, Result { () throws(TextRecognitionError) in
                        try other.read(areas[i], of: page, mode: mode, budget: budget) }) }
                }
            }
        } : nil
        while let i = pieces.next() {
            pieces.set(i, Result { () throws(TextRecognitionError) in try read(areas[i], of: page, mode: mode, budget: budget) })
        }
        shared?.join()
        var results = try pieces.results().map { result throws(TextRecognitionError) in try result.get() }[...]
        var all: [TextBlock] = []
        for area in bands {
            // An area cut in two is one block again where its halves meet.
            var blocks: [TextBlock] = []
            for band in results.prefix(area.count) {
                if let last = blocks.last, let first = band.first {
                    blocks[blocks.count - 1] = last.continued(by: first)
                    blocks += band.dropFirst()
                } else {
                    blocks += band
                }
            }
            results = results.dropFirst(area.count)
            all += blocks
        }
        let found = TextBlock.joiningSealed(all)
        var blocks: [TextBlock] = []
        for block in found {
            blocks.append(block.text.hasPrefix("QRSEAL") ? try rereadDigits(block, in: page, budget: budget) ?? block : block)
        }
        return blocks.map { prepared.inputBlock($0, width: text.width, height: text.height) }
            .filter { !$0.lines.isEmpty && !$0.isNoise }
    }

    /// The blocks Tesseract reads in `piece` of `page` (`TessBaseAPISetImage` with a copy of
    /// that rectangle, `TessBaseAPIRecognize`, then a `TessResultIterator` word by word), boxes
    /// in `page`'s pixels. A copy rather than `TessBaseAPISetRectangle`, which misreads a
    /// rectangle as wide as the image that ends above its bottom (tesseract issue 845).
    private func read(_ piece: Region, of page: GrayImage, mode: TessPageSegMode,
                      budget: Budget) throws(TextRecognitionError) -> [TextBlock] {
        let crop = page.cropped(to: piece)
        // Tesseract refuses images this small, with a message of its own.
        guard crop.width >= 8, crop.height >= 8 else { return [] }
        TessBaseAPISetPageSegMode(handle, mode)
        crop.pixels.withUnsafeBufferPointer { pixels in
            TessBaseAPISetImage(handle, pixels.baseAddress, Int32(crop.width), Int32(crop.height), 1, Int32(crop.width))
        }
        // Tesseract copies the pixels; its results are cleared for the next piece.
        defer { TessBaseAPIClear(handle) }
        try budget.recognize(handle)
        guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        return blocks(iterator).map { $0.offset(by: piece.x, piece.y) }
    }

    /// The rectangles of `prepared` Tesseract reads, one at a time, in this order: only
    /// where the letters are (`TextRegions`) when there are such rectangles and the text is
    /// `sparse`, or, on a page, when they lie one below the other, which is then their
    /// reading order; else the whole image, for a page's columns. A page's rectangles read
    /// the same words as the whole of it, in less time: a camera frame's mottled ground is
    /// not thresholded and laid out (measured by bench/text.py and bench/livetext.py).
    static func areas(_ prepared: TextPreparation, sparse: Bool) -> [Region] {
        if let regions = prepared.regions, sparse || TextRegions.isStacked(regions) { return regions }
        return [Region(x: 0, y: 0, width: prepared.image.width, height: prepared.image.height)]
    }

    /// The `areas`, each as the pieces it is read in: itself, or with `split` its two
    /// halves (`TextRegions.bands`) when the rectangles around the letters lie one below the
    /// other, even where they cover most of the page (a page of one column, whose lines a
    /// cut across keeps in order; columns side by side it would interleave, and a page of
    /// them is read whole), or the text is sparse.
    static func bands(_ prepared: TextPreparation, sparse: Bool, split: Bool) -> [[Region]] {
        let regions = sparse ? prepared.regions : prepared.groups
        guard split, let regions, sparse || TextRegions.isStacked(regions) else {
            return areas(prepared, sparse: sparse).map { [$0] }
        }
        return regions.map { TextRegions.bands(of: $0, letters: prepared.letters) }
    }

    /// The page segmentation for `layout`; for `.automatic`, sparse when the measure says
    /// the picture holds little text (`TextMeasure.isSparse`).
    private func pageMode(_ measure: TextMeasure) -> TessPageSegMode {
        switch layout {
        case .page: return PSM_AUTO
        case .sparse: return PSM_SPARSE_TEXT
        case .automatic: return measure.isSparse ? PSM_SPARSE_TEXT : PSM_AUTO
        }
    }

    /// The time budget of one image's recognition: 20 s, and 4 s more for each million
    /// pixels Tesseract is given. A safety net, far beyond what a page takes (about 2 s for
    /// 40 lines on one core), so that what is read does not depend on the machine's load.
    public static func defaultTimeBudget(pixels: Int) -> Double {
        20 + 4 * Double(pixels) / 1_000_000
    }

    /// A printed sealed message read again, alone and allowed only its prefix's letters and
    /// digits (`tessedit_char_whitelist`), so that a 0 is not read as © or O; nil when the
    /// second reading is not a sealed message either.
    private func rereadDigits(_ block: TextBlock, in image: GrayImage, budget: Budget) throws(TextRecognitionError) -> TextBlock? {
        let margin = 8
        let left = max(0, block.box.x - margin), top = max(0, block.box.y - margin)
        let right = min(image.width, block.box.x + block.box.width + margin)
        let bottom = min(image.height, block.box.y + block.box.height + margin)
        guard right > left, bottom > top else { return nil }
        _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", "0123456789QRSEAL:")
        defer { _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", "") }
        let again: [TextBlock]
        do {
            again = try read(Region(x: left, y: top, width: right - left, height: bottom - top), of: image,
                             mode: PSM_SINGLE_BLOCK, budget: budget)
        } catch {
            if budget.isSpent { throw .timeLimitExceeded(seconds: budget.seconds) }
            return nil
        }
        guard let first = again.first else { return nil }
        let whole = again.dropFirst().reduce(first) { $0.joined(with: $1) }
        return whole.sealedArmor != nil ? whole : nil
    }

    /// Walks the results word by word, starting a line or a block where Tesseract says one begins.
    private func blocks(_ iterator: OpaquePointer) -> [TextBlock] {
        let page = TessResultIteratorGetPageIterator(iterator)
        var blocks: [TextBlock] = []
        var lines: [TextLine] = []
        var words: [TextWord] = []
        var block: (confidence: Double, box: Region)?
        var line: (confidence: Double, box: Region)?
        func endLine() {
            if let l = line, !words.isEmpty { lines.append(TextLine(words: words, confidence: l.confidence, box: l.box)) }
            words = []
        }
        func endBlock() {
            endLine()
            if let b = block, !lines.isEmpty { blocks.append(TextBlock(lines: lines, confidence: b.confidence, box: b.box)) }
            lines = []
        }
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 {
                endBlock()
                block = element(iterator, RIL_BLOCK)
            }
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                endLine()
                line = element(iterator, RIL_TEXTLINE)
            }
            if let raw = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) {
                let text = String(cString: raw)
                TessDeleteText(raw)
                let (confidence, box) = element(iterator, RIL_WORD)
                // Tesseract gives a word of spaces for some marks at a picture's edge.
                if text.contains(where: { !$0.isWhitespace }), confidence >= minConfidence {
                    words.append(TextWord(text: text, confidence: confidence, box: box))
                }
            }
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        endBlock()
        return blocks
    }

    /// The confidence and box of the element at `level` the iterator is in.
    private func element(_ iterator: OpaquePointer, _ level: TessPageIteratorLevel) -> (Double, Region) {
        var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
        _ = TessPageIteratorBoundingBox(TessResultIteratorGetPageIteratorConst(iterator), level, &l, &t, &r, &b)
        let confidence = Double(TessResultIteratorConfidence(iterator, level))
        return (max(0, min(100, confidence)), Region(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t)))
    }
}

extension GrayImage {
    /// Paints white the part of `region` inside the image.
    mutating func paintWhite(_ region: Region) {
        guard let inside = region.clipped(toWidth: width, height: height) else { return }
        for y in inside.y..<(inside.y + inside.height) {
            pixels.replaceSubrange(y * width + inside.x..<y * width + inside.x + inside.width,
                                   with: repeatElement(255, count: inside.width))
        }
    }
}

/// An image made ready for text recognition (`TextRecognizer.prepare`).
public struct PreparedText: Sendable {
    /// Nil for an image too small to hold text.
    let preparation: TextPreparation?
    /// The input's size, which the boxes read are given in.
    let width: Int, height: Int

    /// How many rectangles Tesseract will be given one by one when the letters lie in
    /// several (`TextRegions`) and the layout reads them apart: more than one, and a
    /// helper (`TextRecognizer.recognize(_:helper:)`) can share them.
    public func pieces(layout: TextLayout) -> Int {
        guard let preparation else { return 0 }
        let sparse = layout == .sparse || (layout == .automatic && preparation.measure.isSparse)
        return TextRecognizer.bands(preparation, sparse: sparse, split: true).reduce(0) { $0 + $1.count }
    }
}

/// One image's time budget, kept by a Tesseract monitor (`TessMonitorCreate`,
/// `TessMonitorSetDeadlineMSecs`) for each recognition it runs.
struct Budget {
    let seconds: Double
    private let start = ContinuousClock.now

    init(seconds: Double) { self.seconds = seconds }

    /// True once the budget is used up.
    var isSpent: Bool { ContinuousClock.now - start >= .milliseconds(Int64(seconds * 1000)) }

    /// `TessBaseAPIRecognize` with what is left of the budget as its deadline; a stop at
    /// the deadline is `timeLimitExceeded`, any other failure `recognitionFailed`.
    func recognize(_ handle: OpaquePointer) throws(TextRecognitionError) {
        let spent = ContinuousClock.now - start
        let left = Int64(seconds * 1000) - spent.components.seconds * 1000 - spent.components.attoseconds / 1_000_000_000_000_000
        guard left > 0 else { throw .timeLimitExceeded(seconds: seconds) }
        guard let monitor = TessMonitorCreate() else { throw .recognitionFailed }
        defer { TessMonitorDelete(monitor) }
        TessMonitorSetDeadlineMSecs(monitor, Int32(min(left, Int64(Int32.max))))
        guard TessBaseAPIRecognize(handle, monitor) == 0 else {
            throw isSpent ? .timeLimitExceeded(seconds: seconds) : .recognitionFailed
        }
    }
}

extension TextBlock {
    /// This block and `next`, the first block of the half below it, as one: their lines,
    /// one box, and the confidence of their words taken together.
    func continued(by next: TextBlock) -> TextBlock {
        let words = lines.reduce(0) { $0 + $1.words.count }, more = next.lines.reduce(0) { $0 + $1.words.count }
        let confidence = words + more == 0 ? min(self.confidence, next.confidence)
            : (self.confidence * Double(words) + next.confidence * Double(more)) / Double(words + more)
        return TextBlock(lines: lines + next.lines, confidence: confidence, box: box.union(next.box))
    }
}

extension TextPreparation {
    /// `block`, read in the prepared image, with its boxes in the input's pixels
    /// (`width` × `height`) and its corners following the text's slant. Tesseract does not
    /// keep its boxes inside the image it read (a word at x 106 of 104 columns), so every
    /// box is clipped to the input, and corners kept on it; a word with nothing of its box
    /// left inside is an artefact of the edge and is dropped, and a line without words with
    /// it (a block without lines is left for the caller to drop).
    func inputBlock(_ block: TextBlock, width: Int, height: Int) -> TextBlock {
        func box(_ b: Region) -> Region? { inputBox(b, width: width, height: height).clipped(toWidth: width, height: height) }
        func around(_ boxes: [Region]) -> Region { boxes.dropFirst().reduce(boxes.first ?? Region(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) } }
        let lines = block.lines.compactMap { line -> TextLine? in
            let words = line.words.compactMap { word in
                box(word.box).map { TextWord(text: word.text, confidence: word.confidence, box: $0) }
            }
            guard !words.isEmpty else { return nil }
            return TextLine(words: words, confidence: line.confidence, box: box(line.box) ?? around(words.map(\.box)))
        }
        let corners = (scale != 1 || angle != 0 ? inputCorners(block.box) : block.box.corners).map {
            Point(x: min(max($0.x, 0), Double(width)), y: min(max($0.y, 0), Double(height)))
        }
        return TextBlock(lines: lines, confidence: block.confidence, box: box(block.box) ?? around(lines.map(\.box)), corners: corners)
    }
}
