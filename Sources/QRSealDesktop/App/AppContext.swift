import FoundationEssentials
import Glibc
import QRSealKit

/// What every page shares: where the user's files are (the same as the CLI's), the inbox,
/// the keyring, the window's toasts, and word that the inbox changed. One per window.
final class AppContext {
    let files: UserFiles
    let options: DesktopOptions
    /// Set by the window once it is built.
    var toasts: ToastOverlay!
    var window: Window!
    private var inboxObservers: [() -> Void] = []

    init(options: DesktopOptions, environment: [String: String]) {
        self.options = options
        files = UserFiles(environment: environment)
    }

    /// The inbox file, as the CLI finds it (`--inbox`, `QRSEAL_INBOX`, the data directory).
    func inboxPath() throws(UserFiles.Failure) -> String { try files.inboxPath(given: options.inbox) }

    /// Opens the inbox, making its folder (mode 0700) when it is missing.
    func openInbox() throws(InboxError) -> Inbox { try inboxOpener()() }

    /// The duplicate policy of the user's configuration (consecutive when unset or unreadable).
    var dedupePolicy: DedupePolicy { (try? files.dedupePolicy()) ?? .consecutive }

    /// The keys of the keyring, to try on sealed messages; a key that cannot be read is skipped.
    func keyringKeys() -> [SealKey] {
        guard let ring = try? files.keyring() else { return [] }
        return ring.readableKeys().0
    }

    /// Says that the inbox changed (something kept, removed, imported): pages showing it reload.
    func inboxChanged() { for observer in inboxObservers { observer() } }

    func onInboxChange(_ body: @escaping () -> Void) { inboxObservers.append(body) }

    /// Sealed messages opened in this session, by inbox id: shown opened on every page while
    /// the app runs, never written anywhere (the inbox keeps them sealed).
    private(set) var opened: [Int64: Payload] = [:]

    func remember(opened payload: Payload, inboxID: Int64) {
        opened[inboxID] = payload
        inboxChanged()
    }

    /// A short message at the bottom of the window.
    func toast(_ text: String) { toasts.show(text) }

    // The keys page and the pages that use keys and contacts (compose, scan).

    private var keysObservers: [() -> Void] = []

    /// Says that the keyring or the contacts changed: the composer's lists reload.
    func keysChanged() { for observer in keysObservers { observer() } }

    func onKeysChange(_ body: @escaping () -> Void) { keysObservers.append(body) }

    /// Shows the page named ("scan", "inbox", "compose", "keys"); set by the window.
    var showPage: (String) -> Void = { _ in }

    /// Set by the keys page while it waits for a scanned recipient code: the scan page calls
    /// it with the `age1…` text it read (and then it is cleared), and the keys page offers
    /// to keep it as a contact. Nil when nobody waits.
    var recipientScanned: ((String) -> Void)?
}

extension AppContext {
    /// Opens the inbox from any thread (a worker's): the path is found now, on the main
    /// thread; the folder (mode 0700) is made when missing and the inbox opened when called.
    func inboxOpener() -> @Sendable () throws(InboxError) -> Inbox {
        let found: Result<String, UserFiles.Failure>
        do { found = .success(try inboxPath()) } catch { found = .failure(error) }
        return { () throws(InboxError) -> Inbox in
            let path: String
            switch found {
            case .success(let p): path = p
            case .failure(let error): throw .cannotOpen(path: "inbox", reason: error.description)
            }
            let folder = SystemFiles.directory(of: path)
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])
            }
            return try Inbox(path: path)
        }
    }
}
