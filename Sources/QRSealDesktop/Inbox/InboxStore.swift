import Dispatch
import QRSealKit

/// The inbox, reached from a worker thread: every read or change opens it on one serial
/// queue (so changes land in the order asked), runs there, and hands its result back to the
/// main thread. Nothing here blocks the main loop.
final class InboxStore {
    private let open: @Sendable () throws(InboxError) -> Inbox
    private let queue = DispatchQueue(label: "qrseal.desktop.inbox")

    init(context: AppContext) { open = context.inboxOpener() }

    /// What the list shows: the items matching a filter, pinned first, then newest first.
    struct Listing: Sendable {
        var items: [InboxItem] = []
        /// How many items match, when more than `items` holds.
        var matching = 0
        var waiting: [Inbox.PartProgress] = []
        /// Whether the inbox holds nothing at all (no item, no waiting message).
        var isEmpty = true
    }

    /// The newest items a list shows; a search narrows a larger inbox.
    static let shownAtMost = 300

    func list(search: String, kind: ContentKind?, then done: @escaping (Result<Listing, InboxError>) -> Void) {
        let open = self.open
        Worker.run(on: queue, { () -> Result<Listing, InboxError> in
            do throws(InboxError) {
                let inbox = try open()
                var query = InboxQuery(kind: kind, search: search.isEmpty ? nil : search)
                query.pinnedOnly = true
                let pinned = try inbox.list(query)
                query.pinnedOnly = false
                query.limit = Self.shownAtMost
                let newest = try inbox.list(query).filter { !$0.pinned }
                var listing = Listing()
                listing.items = pinned + newest
                listing.matching = try inbox.count(InboxQuery(kind: kind, search: search.isEmpty ? nil : search))
                listing.waiting = try inbox.waitingMessages()
                let total = try inbox.count(InboxQuery())
                listing.isEmpty = listing.waiting.isEmpty && total == 0
                return .success(listing)
            } catch {
                return .failure(error)
            }
        }, then: done)
    }

    /// Runs `change` on the inbox; `done` gets its result or the inbox's error.
    func change<T: Sendable>(_ change: @escaping @Sendable (Inbox) throws(InboxError) -> T,
                             then done: @escaping (Result<T, InboxError>) -> Void) {
        let open = self.open
        Worker.run(on: queue, { () -> Result<T, InboxError> in
            do throws(InboxError) { return .success(try change(try open())) } catch { return .failure(error) }
        }, then: done)
    }
}
