/// What recognised text holds: the kinds scanner apps tag in text (links, e-mail addresses,
/// phone numbers, dates and times, postal addresses) and a printed sealed message, found with the inbox's `ContentClassifier`.
extension TextBlock {
    /// The armor of a sealed message printed as digits (`QRSEAL1:` then digits), with the
    /// spaces and line breaks Tesseract puts between printed groups and lines taken out;
    /// nil unless the whole block is that and nothing else.
    public var sealedArmor: [UInt8]? {
        let compact = Array(text.utf8.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 })
        let prefix = Array(Armor.digitsPrefix.utf8)
        guard compact.count >= prefix.count, compact.starts(with: prefix),
              compact[prefix.count...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return compact
    }

    /// `blocks` with a printed sealed message made one block again: Tesseract may read the
    /// `QRSEAL1:` line and the groups of digits under it as blocks of their own.
    public static func joiningSealed(_ blocks: [TextBlock]) -> [TextBlock] {
        var out: [TextBlock] = []
        for block in blocks {
            if let last = out.last, last.sealedArmor != nil,
               block.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == " " || $0 == "\n" }) {
                out[out.count - 1] = last.joined(with: block)
            } else {
                out.append(block)
            }
        }
        return out
    }

    /// The lines of both blocks, in one box, at the lower confidence.
    func joined(with other: TextBlock) -> TextBlock {
        let left = min(box.x, other.box.x), top = min(box.y, other.box.y)
        let right = max(box.x + box.width, other.box.x + other.box.width)
        let bottom = max(box.y + box.height, other.box.y + other.box.height)
        return TextBlock(lines: lines + other.lines, confidence: min(confidence, other.confidence),
                         box: Region(x: left, y: top, width: right - left, height: bottom - top))
    }

    /// The links, e-mail addresses, phone numbers, dates and addresses in the block, in reading order.
    public var contents: [ContentSummary] { lines.flatMap(\.contents) }

    /// The kind the inbox files this block under: sealed, the first kind found in it, or text.
    public var kind: ContentKind {
        if sealedArmor != nil { return .sealed }
        return contents.first?.kind ?? .text
    }

    /// The links, e-mail addresses, phone numbers, dates and addresses in one line, in
    /// reading order; words taken by a date or a postal code are not read as a phone number.
    static func contents(of line: TextLine) -> [ContentSummary] {
        let words = line.words.map(\.text)
        let dates = TextDates.find(words).map { ($0.words, $0.summary) }
        let addresses = TextAddresses.find(words)
        let taken = (dates.map(\.0) + addresses.map(\.words)).reduce(into: Set<Int>()) { $0.formUnion($1) }
        var found: [(Int, ContentSummary)] = []
        for (n, word) in words.enumerated() where !taken.contains(n) {
            let token = trimmedToken(word)
            guard !token.isEmpty else { continue }
            let summary = ContentClassifier.classify(bytes: Array(token.utf8), text: token, symbology: "text")
            if summary.kind == .url || summary.kind == .email { found.append((n, summary)) }
        }
        // A phone number is looked for in each run of words between dates and codes.
        var start = 0
        for end in (taken.sorted() + [words.count]) {
            if end > start { found += phoneNumbers(Array(words[start..<end])).map { (start + $0.0, $0.1) } }
            start = end + 1
        }
        found += dates.map { ($0.0.lowerBound, $0.1) } + addresses.map { ($0.words.lowerBound, $0.summary) }
        // Sorted by first word, the earlier found first among equals.
        return found.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }

    /// A word without the punctuation that ends a sentence or encloses a link in prose.
    static func trimmedToken(_ word: String) -> String {
        let edges: Set<Character> = [",", ".", ";", ":", "!", "?", "(", ")", "<", ">", "\"", "'", "[", "]"]
        var s = Substring(word)
        while let last = s.last, edges.contains(last) { s = s.dropLast() }
        while let first = s.first, edges.contains(first) { s = s.dropFirst() }
        return String(s)
    }

    /// Runs of words that make a phone number: 7 to 15 digits with the separators people
    /// write (`+44 20 7946 0958`, `(555) 010-0199`), through `tel:` as the classifier knows it.
    /// Each comes with the index of its first word.
    static func phoneNumbers(_ words: [String]) -> [(Int, ContentSummary)] {
        var found: [(Int, ContentSummary)] = []
        var run: [String] = []
        var first = 0
        func flush() {
            defer { run = [] }
            let number = trimmedToken(run.joined(separator: " "))
            let digits = number.filter(\.isASCII).filter(\.isNumber).count
            guard (7...15).contains(digits), let summary = ContentClassifier.phone(Array(number.unicodeScalars)[...]) else { return }
            found.append((first, summary))
        }
        let allowed = Set("0123456789+-.()/")
        for (n, word) in words.enumerated() {
            if run.isEmpty { first = n }
            let token = word.hasSuffix(",") || word.hasSuffix(".") ? String(word.dropLast()) : word
            if !token.isEmpty, token.allSatisfy({ allowed.contains($0) }), token.contains(where: \.isNumber) {
                run.append(token)
                if token.count != word.count { flush() }
            } else {
                flush()
            }
        }
        flush()
        return found
    }
}

extension TextLine {
    /// The links, e-mail addresses, phone numbers, dates and addresses in the line, in reading order.
    public var contents: [ContentSummary] { TextBlock.contents(of: self) }
}
