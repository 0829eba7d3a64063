import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal inbox …`: list, show, open, remove, label, pin, count, export and import kept items.
struct InboxCommand {
    let spec: CommandSpec
    let args: ParsedArguments
    let locations: Locations

    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) {
        self.spec = spec
        self.args = args
        locations = Locations(console: console)
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        switch spec.name {
        case "inbox list": return try list(console)
        case "inbox show": return try show(console)
        case "inbox open": return try open(console)
        case "inbox rm": return try remove(console)
        case "inbox label":
            guard args.positionals.count == 2 else { throw .usage("inbox label takes ID and TEXT") }
            let text = args.positionals[1]
            try change { inbox, id throws(InboxError) in try inbox.setLabel(text.isEmpty ? nil : text, for: id) }
            return .success
        case "inbox pin", "inbox unpin":
            let pinned = spec.name == "inbox pin"
            try change { inbox, id throws(InboxError) in try inbox.setPinned(pinned, for: id) }
            return .success
        case "inbox count": return try count(console)
        case "inbox export": return try export(console)
        default: return try importItems(console)
        }
    }

    // MARK: Reading

    private func query() throws(CLIError) -> InboxQuery {
        var query = InboxQuery()
        query.kind = try args.choice("kind", of: ContentKind.self)
        let now = Intake.now()
        for (option, keyPath) in [("since", \InboxQuery.since), ("until", \InboxQuery.until)] {
            if let text = args.value(option) {
                guard let ms = TimeArguments.date(text, now: now) else {
                    throw .usage("--\(option) must be a date (YYYY-MM-DD, YYYY-MM-DDTHH:MM) or a duration (7d, 12h), not '\(text)'")
                }
                query[keyPath: keyPath] = ms
            }
        }
        query.search = args.value("search")
        query.pinnedOnly = args.has("pinned")
        return query
    }

    /// The inbox; only import creates one, and commands that only read open it read-only.
    private func inbox() throws(CLIError) -> Inbox {
        let changes = ["inbox import", "inbox rm", "inbox label", "inbox pin", "inbox unpin"].contains(spec.name)
        return try locations.openInbox(args, create: spec.name == "inbox import", access: changes ? .readWrite : .readOnly)
    }

    private func list(_ console: Console) throws(CLIError) -> ExitStatus {
        guard args.positionals.isEmpty else { throw .usage("inbox list takes no arguments") }
        if args.has("waiting") { return try listWaiting(console) }
        var q = try query()
        let limit = try args.integer("limit", in: 0...Int(Int32.max), default: 50)
        q.limit = limit == 0 ? nil : limit
        let items: [InboxItem]
        let inbox = try inbox()
        do { items = try inbox.list(q) } catch { throw CLIError(message: error.description) }
        if args.has("json") {
            for item in items { console.print(InboxFormat.json.encode(item)) }
        } else if !items.isEmpty {
            for line in InboxTable.lines(items, width: console.columns) { console.print(line) }
        }
        // Messages still waiting for parts, after the items: listed in human output; with
        // --json, whose lines are items, a hint on standard error says how many and where
        // to see them. They are not items: the status says whether an item passed.
        let waiting = try waitingMessages(inbox)
        if args.has("json") {
            if !waiting.isEmpty {
                Diagnostics.hint("\(Self.messages(waiting.count)) waiting for parts: 'qrseal inbox list --waiting --json' "
                                 + "lists \(waiting.count == 1 ? "it" : "them")", console: console)
            }
        } else if !waiting.isEmpty {
            console.print((items.isEmpty ? "" : "\n") + "waiting for parts:")
            for line in waitingLines(waiting) { console.print(line) }
        }
        return items.isEmpty ? .nothingFound : .success
    }

    /// `inbox list --waiting`: the messages still waiting for parts, oldest first, and no item.
    private func listWaiting(_ console: Console) throws(CLIError) -> ExitStatus {
        if let option = ["kind", "since", "until", "search", "limit"].first(where: { args.value($0) != nil })
            ?? (args.has("pinned") ? "pinned" : nil) {
            throw .usage("--\(option) chooses items; --waiting lists the messages waiting for parts, which are not items yet")
        }
        let waiting = try waitingMessages(try inbox())
        if args.has("json") {
            for message in waiting {
                console.print(JSON.line([
                    ("id", .string(message.idText)),
                    ("kind", .string(message.isStructuredAppend ? "structured-append" : "parts")),
                    ("have", .int(message.have)), ("needed", .int(message.needed)),
                    ("data_parts", .int(message.dataParts)), ("total_parts", .int(message.totalParts)),
                    ("length", .int(message.length)),
                    ("first_seen", .string(Timestamp.iso8601(message.firstSeen))), ("source", .string(message.source)),
                ]))
            }
        } else {
            for line in waitingLines(waiting) { console.print(line) }
        }
        return waiting.isEmpty ? .nothingFound : .success
    }

    private func waitingMessages(_ inbox: Inbox) throws(CLIError) -> [Inbox.PartProgress] {
        do { return try inbox.waitingMessages() } catch { throw CLIError(message: error.description) }
    }

    /// One line a waiting message: its id, where it stands, and where its first part came from.
    private func waitingLines(_ waiting: [Inbox.PartProgress]) -> [String] {
        waiting.map { "  \($0.idText)  \($0.text)  (first from \(DisplayText.escape($0.source)))" }
    }

    /// "1 message", "3 messages".
    private static func messages(_ n: Int) -> String { "\(n) message\(n == 1 ? "" : "s")" }

    private func itemID(_ text: String?) throws(CLIError) -> Int64 {
        guard let text, let id = Int64(text), id > 0 else {
            throw .usage("\(spec.name) takes an item ID (a number from 'qrseal inbox list')")
        }
        return id
    }

    private func item(_ inbox: Inbox) throws(CLIError) -> InboxItem {
        guard args.positionals.count == 1 else { throw .usage("\(spec.name) takes one ID") }
        let id = try itemID(args.positionals.first)
        do { return try inbox.item(id) } catch { throw CLIError(message: error.description) }
    }

    private func show(_ console: Console) throws(CLIError) -> ExitStatus {
        let item = try item(try inbox())
        if args.has("json") {
            console.print(InboxFormat.json.encode(item))
        } else {
            for line in InboxTable.details(item) { console.print(line) }
        }
        return .success
    }

    private func open(_ console: Console) throws(CLIError) -> ExitStatus {
        let writer = PayloadWriter(force: args.has("force"), inputs: args.keyFiles + [try locations.inboxPath(args)])
        let output = try args.outputPath()
        try writer.check(output)
        let item = try item(try inbox())
        let id = item.id ?? 0
        let reader = Reader(opener: try args.opener(),
                            keys: try KeySources(args, console: console).keys + locations.keyringKeys(console: console))
        let intake = Intake(reader: reader, keeping: .nothing)
        var content = intake.content(of: item)
        if content.isLocked(.passphrase), let key = try KeySources.prompt(console: console, confirm: false) {
            intake.add(key)
            content = intake.content(of: item)
        }
        switch content {
        case .opened(.text(let text)) where output == nil:
            OpenCommand.printText(text, console: console)
        case .opened(.text(let text)):
            try writer.writeReporting(Array(text.utf8), named: "", to: output, console: console)
        case .opened(.file(let name, let content)):
            try writer.writeReporting(content, named: name, to: output, console: console)
        case .locked(let kind, _):
            throw CLIError(message: "item \(id) is sealed with a \(kind) and none was given",
                           hints: [KeySources.hint(for: kind)], status: .cannotOpen)
        case .failed(let error):
            throw CLIError(message: "item \(id): \(error.description)", status: OpenCommand.status(for: error))
        case .plain:
            throw CLIError(message: "item \(id) is not a sealed message or a file (it is \(item.kind.rawValue))",
                           hints: ["see it with 'qrseal inbox show \(id)'"])
        }
        return .success
    }

    private func count(_ console: Console) throws(CLIError) -> ExitStatus {
        guard args.positionals.isEmpty else { throw .usage("inbox count takes no arguments") }
        let q = try query()
        let inbox = try inbox()
        let byKind: [(ContentKind, Int)]
        do { byKind = try inbox.countByKind(q) } catch { throw CLIError(message: error.description) }
        let total = byKind.reduce(0) { $0 + $1.1 }
        // Messages waiting for parts are not items, and no filter applies to them: counted apart.
        let waiting = try waitingMessages(inbox).count
        if args.has("json") {
            console.print(JSON.line([("total", .int(total)), ("waiting", .int(waiting))] + byKind.map { ($0.0.rawValue, .int($0.1)) }))
        } else {
            console.print("\(total) item\(total == 1 ? "" : "s")")
            for (kind, n) in byKind { console.print("  " + kind.rawValue.padded(to: 9) + "\(n)") }
            if waiting > 0 { console.print("\(Self.messages(waiting)) waiting for parts (see 'qrseal inbox list --waiting')") }
        }
        return total > 0 ? .success : .nothingFound
    }

    // MARK: Changing

    private func change(_ body: (Inbox, Int64) throws(InboxError) -> Void) throws(CLIError) {
        guard let first = args.positionals.first else { throw .usage("\(spec.name) takes an item ID") }
        let id = try itemID(first)
        let inbox = try inbox()
        do { try body(inbox, id) } catch { throw CLIError(message: error.description) }
    }

    private func remove(_ console: Console) throws(CLIError) -> ExitStatus {
        let inbox = try inbox()
        if args.has("waiting") {
            guard args.value("older-than") == nil else { throw .usage("give --waiting or --older-than, not both") }
            let ids = args.positionals.map { $0.uppercased() }
            if ids.isEmpty, asks(console) {
                let waiting: Int
                do { waiting = try inbox.waitingMessages().count } catch { throw CLIError(error) }
                if waiting > 0, try !answeredYes("Remove all \(Self.messages(waiting)) waiting for parts, with their parts?", console) {
                    return declined(console)
                }
            }
            let removed: Int
            do { removed = try inbox.removeWaiting(ids.isEmpty ? nil : ids) } catch { throw CLIError(error) }
            if removed < ids.count {
                let known = Set((try? inbox.waitingMessages().map(\.idText)) ?? [])
                let missing = ids.filter { !known.contains($0) }
                throw CLIError(message: "no message waits for parts under \(missing.map { DisplayText.escape($0) }.joined(separator: ", "))",
                               hints: ["'qrseal inbox list' shows those that wait; the others named were removed"])
            }
            console.printError("qrseal: removed \(removed) waiting message\(removed == 1 ? "" : "s")")
            return .success
        }
        if let text = args.value("older-than") {
            guard args.positionals.isEmpty else { throw .usage("give IDs or --older-than, not both") }
            guard let age = TimeArguments.duration(text) else {
                throw .usage("--older-than must be a duration such as 30d, 12h or 2w, not '\(text)'")
            }
            let cutoff = Intake.now() - age
            if args.has("dry-run") {
                let items: [InboxItem]
                do { items = try inbox.list(InboxQuery(until: cutoff)).filter { !$0.pinned } } catch { throw CLIError(error) }
                return wouldRemove(items, console)
            }
            if asks(console) {
                // Counted, not listed: only the number is asked about.
                let count: Int
                do { count = try inbox.count(InboxQuery(until: cutoff)) - inbox.count(InboxQuery(until: cutoff, pinnedOnly: true)) }
                catch { throw CLIError(error) }
                let question = "Remove \(count) unpinned item\(count == 1 ? "" : "s") received more than \(DisplayText.escape(text)) ago?"
                if count > 0, try !answeredYes(question, console) { return declined(console) }
            }
            let removed: Int
            do { removed = try inbox.removeUnpinned(before: cutoff) } catch {
                throw CLIError(message: error.description)
            }
            console.printError("qrseal: removed \(removed) item\(removed == 1 ? "" : "s")")
            return .success
        }
        guard !args.positionals.isEmpty else { throw .usage("inbox rm takes item IDs or --older-than DURATION") }
        var ids: [Int64] = []
        for text in args.positionals { ids.append(try itemID(text)) }
        if args.has("dry-run") {
            var items: [InboxItem] = []
            for id in ids { if let item = try? inbox.item(id) { items.append(item) } }
            return wouldRemove(items, console)
        }
        let removed: Int
        do { removed = try inbox.remove(ids) } catch { throw CLIError(error) }
        console.printError("qrseal: removed \(removed) item\(removed == 1 ? "" : "s")")
        return .success
    }

    /// Whether removing many at once asks first: not with `--yes`, nor when standard input is
    /// no terminal (a script). Nothing is asked either when none would go.
    private func asks(_ console: Console) -> Bool { !args.has("yes") && console.inputIsTerminal }

    /// The answer on the terminal to `question`: no unless it is y or yes.
    private func answeredYes(_ question: String, _ console: Console) throws(CLIError) -> Bool {
        guard let answer = console.ask(question + " [y/N] ") else {
            throw CLIError(message: "cannot ask whether to remove: no terminal to answer on",
                           hints: ["give --yes to remove without asking, or --dry-run to list what would go"])
        }
        return ["y", "yes"].contains(answer.trimmingSpaces().lowercased())
    }

    private func declined(_ console: Console) -> ExitStatus {
        console.printError("qrseal: nothing removed")
        return .success
    }

    /// `inbox rm --dry-run`: the items that would go, as `inbox list` shows them, and nothing removed.
    private func wouldRemove(_ items: [InboxItem], _ console: Console) -> ExitStatus {
        if !items.isEmpty { for line in InboxTable.lines(items, width: console.columns) { console.print(line) } }
        console.printError("qrseal: would remove \(items.count) item\(items.count == 1 ? "" : "s"); none removed (--dry-run)")
        return .success
    }

    // MARK: Export and import

    private func export(_ console: Console) throws(CLIError) -> ExitStatus {
        guard args.positionals.isEmpty else { throw .usage("inbox export takes no arguments") }
        let format = try args.choice("format", of: InboxFormat.self) ?? .json
        // The export holds what the inbox holds (Wi-Fi passwords, notes): private like the inbox.
        // Its target is checked before the inbox is even opened.
        let output = Output(path: try args.outputPath() ?? "-", force: args.has("force"),
                            inputs: [try locations.inboxPath(args)], isPrivate: true)
        try output.check()
        let inbox = try inbox()
        let text: String
        do { text = try inbox.export(format) } catch { throw CLIError(message: error.description) }
        try output.write(Array(text.utf8), console: console)
        return .success
    }

    private func importItems(_ console: Console) throws(CLIError) -> ExitStatus {
        guard args.positionals.count == 1, let source = args.positionals.first else {
            throw .usage("inbox import takes one FILE (or - for standard input)")
        }
        let lines = try LineSource(path: source, console: console)
        let made = NewInbox(path: try locations.inboxPath(args))
        let imported: Inbox.Imported
        do throws(CLIError) {
            let inbox = try inbox()
            do {
                imported = try inbox.importLines(lines.next)
            } catch {
                // A bad line is the import file's fault; anything else is the inbox's, which names itself.
                if case .badImport = error { throw CLIError(message: "\(source): \(error.description)") }
                throw CLIError(error)
            }
        } catch {
            // All or nothing: an inbox made for this import goes with it.
            made.remove()
            throw error
        }
        report(imported, from: source, console: console)
        return .success
    }

    /// What an import added: items, parts of waiting messages, messages those parts completed,
    /// and waiting messages dropped to keep within the limits.
    private func report(_ imported: Inbox.Imported, from source: String, console: Console) {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let pieces = imported.pieces > 0 ? " and " + plural(imported.pieces, "waiting part") : ""
        console.printError("qrseal: imported \(plural(imported.items, "item"))\(pieces) from \(DisplayText.escape(source))")
        for item in imported.completed {
            console.printError("qrseal: a part from \(DisplayText.escape(source)) completed a message, now item \(item.id ?? 0)")
        }
        for dropped in imported.dropped { Diagnostics.dropped(dropped, console: console) }
    }
}

/// What opening an inbox that is not there yet will make: the file and the folders above it.
private struct NewInbox {
    let files: [String]
    /// Deepest first.
    let folders: [String]

    init(path: String) {
        var info = stat()
        files = RawBytes.withCString(path) { lstat($0, &info) } == 0 ? [] : [path, path + "-wal", path + "-shm"]
        var folders: [String] = []
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.path) {
            folders.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        self.folders = folders
    }

    /// Removes them again; a folder only while it is empty.
    func remove() {
        for file in files { RawBytes.withCString(file) { _ = unlink($0) } }
        for folder in folders { RawBytes.withCString(folder) { _ = rmdir($0) } }
    }
}
