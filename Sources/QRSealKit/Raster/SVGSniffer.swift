/// Whether bytes are an SVG document: XML whose first element is `svg`, found by its start
/// (an XML declaration, comments, a doctype), not by a file name.
enum SVGSniffer {
    /// How far into the file the `<svg` element may start.
    static let window = 4096

    static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        var head = bytes.prefix(window)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        guard let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") else {
            return false
        }
        // The first element that is not a declaration, comment or doctype must be <svg.
        var index = head.startIndex
        while let open = head[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = head[(open + 1)...]
            if rest.starts(with: Array("?".utf8)) || rest.starts(with: Array("!".utf8)) {
                let end: [UInt8] = rest.starts(with: Array("!--".utf8)) ? Array("-->".utf8) : Array(">".utf8)
                guard let close = find(end, in: rest) else { return false }
                index = close
                continue
            }
            return rest.starts(with: Array("svg".utf8)) || rest.starts(with: Array("svg:svg".utf8))
        }
        return false
    }

    /// The index just past the first `needle` in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i + needle.count }
            i += 1
        }
        return nil
    }
}
