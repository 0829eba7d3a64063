/// How an `InboxItem` maps to a row of the `items` table, and how a query becomes SQL.
/// All values are bound as parameters; no user text is ever spliced into SQL.
enum InboxRow {
    static let columns = "id, received_at, source_kind, source, symbology, bytes, text, kind, corners, label, pinned, file_name"
    /// The same for an inbox before schema 6 (opened to read only), which has no `file_name`.
    static let columnsBefore6 = "id, received_at, source_kind, source, symbology, bytes, text, kind, corners, label, pinned, NULL"

    /// The values for the INSERT columns after `id`, in order.
    static func values(_ item: InboxItem, fileName: Bool = true) -> [SQLValue] {
        [.integer(item.receivedAt), .text(item.sourceKind.rawValue), .text(item.source),
         .text(item.symbology), .blob(item.bytes), item.text.map(SQLValue.text) ?? .null,
         .text(item.kind.rawValue), item.corners.isEmpty ? .null : .text(encodeCorners(item.corners)),
         item.label.map(SQLValue.text) ?? .null, .integer(item.pinned ? 1 : 0)]
            + (fileName ? [item.fileName.map(SQLValue.text) ?? .null] : [])
    }

    /// An item from a row selected with `columns`.
    static func item(_ row: [SQLValue]) -> InboxItem {
        func text(_ v: SQLValue) -> String? { if case .text(let s) = v { return s } else { return nil } }
        func int(_ v: SQLValue) -> Int64 { if case .integer(let n) = v { return n } else { return 0 } }
        var bytes: [UInt8] = []
        if case .blob(let b) = row[5] { bytes = b }
        return InboxItem(id: int(row[0]), receivedAt: int(row[1]),
                         sourceKind: InboxItem.SourceKind(rawValue: text(row[2]) ?? "") ?? .file,
                         source: text(row[3]) ?? "", symbology: text(row[4]) ?? "", bytes: bytes,
                         text: text(row[6]), kind: ContentKind(rawValue: text(row[7]) ?? "") ?? .binary,
                         corners: decodeCorners(text(row[8]) ?? ""), label: text(row[9]), pinned: int(row[10]) != 0,
                         fileName: row.count > 11 ? text(row[11]) : nil)
    }

    /// A WHERE clause and its bound values for `query`.
    static func filter(_ query: InboxQuery) -> (String, [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let kind = query.kind { conditions.append("kind = ?"); values.append(.text(kind.rawValue)) }
        if let since = query.since { conditions.append("received_at >= ?"); values.append(.integer(since)) }
        if let until = query.until { conditions.append("received_at < ?"); values.append(.integer(until)) }
        if query.pinnedOnly { conditions.append("pinned = 1") }
        if let search = query.search, !search.isEmpty {
            if search.unicodeScalars.count >= 3 {
                // The trigram index finds any substring of three or more characters; the
                // search is one quoted phrase, so FTS5 query syntax in it means nothing.
                conditions.append("id IN (SELECT rowid FROM items_search WHERE items_search MATCH ?)")
                values.append(.text("\"" + search.replacingAll("\"", with: "\"\"") + "\""))
            } else if search.unicodeScalars.allSatisfy(\.isASCII) {
                // Too short for the index: a scan, where LIKE's ASCII-only case folding suffices.
                conditions.append("((kind != 'sealed' AND text LIKE ? ESCAPE '\\') OR label LIKE ? ESCAPE '\\')")
                let pattern = "%" + escapeLike(search) + "%"
                values += [.text(pattern), .text(pattern)]
            } else {
                conditions.append("((kind != 'sealed' AND folded_contains(text, ?)) OR folded_contains(label, ?))")
                values += [.text(search.lowercased()), .text(search.lowercased())]
            }
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), values)
    }

    static func escapeLike(_ s: String) -> String {
        var out = ""
        for c in s {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Corners as compact JSON: `[[x,y],[x,y],…]`.
    static func encodeCorners(_ corners: [Point]) -> String {
        "[" + corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",") + "]"
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// Parses `encodeCorners` output; anything else gives no corners.
    static func decodeCorners(_ text: String) -> [Point] {
        let numbers = text.split(whereSeparator: { "[], ".contains($0) }).compactMap { Double($0) }
        guard numbers.count % 2 == 0 else { return [] }
        return stride(from: 0, to: numbers.count, by: 2).map { Point(x: numbers[$0], y: numbers[$0 + 1]) }
    }
}

extension String {
    /// Every `target` scalar replaced. Scalars, not characters: a quote followed by a
    /// combining mark is one Swift character, which a search for the quote would pass over.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == target { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
