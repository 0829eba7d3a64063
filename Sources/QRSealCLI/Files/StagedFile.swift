import FoundationEssentials
import Glibc
import QRSealKit

/// A new file a command writes (`Output`), before it is complete and has its final name.
///
/// It has no name at all while it is written: an unnamed file (`O_TMPFILE`) in the target's
/// folder, named with `linkat(2)` once complete, so that no interruption, SIGKILL and a power
/// cut included, leaves any of it on disk. Where the file system cannot make one, it is a
/// temporary file `.qrseal-PID-XXXXXX` beside the target, removed by `TemporaryNames`' signal
/// handler on SIGTERM, SIGINT and SIGHUP, and by any later write in that folder once the
/// process PID is gone.
final class StagedFile {
    /// Read and write: standard output's copy is read back.
    let fd: Int32
    /// The file's name while it has one.
    private var name: (path: String, slot: Int?)?

    /// A new file in `directory`, mode 0600.
    init(in directory: String) throws(SystemFiles.Failure) {
        TemporaryNames.sweep(directory)
        if Self.canNameDescriptors {
            let fd = SystemFiles.openUnnamed(in: directory)
            if fd >= 0 {
                self.fd = fd
                return
            }
            guard errno == EOPNOTSUPP || errno == EISDIR else { throw .system(SystemFiles.reason()) }
        }
        let made = try SystemFiles.makeTemporary(SystemFiles.join(directory, TemporaryNames.prefix + "XXXXXX"))
        fd = made.fd
        name = (made.path, TemporaryNames.register(made.path))
    }

    private var open = true

    deinit { discard() }

    /// Closes the file and removes its temporary name, if it has one: a file not yet placed
    /// is gone. Callers call it when they are done (`defer`), so that the descriptor lives
    /// exactly as long as the writing.
    func discard() {
        if open { close(fd) }
        open = false
        forgetName(removing: true)
    }

    /// Removes the file's temporary name now, if it has one: a file only ever read back
    /// through its descriptor (standard output's copy).
    func removeName() { forgetName(removing: true) }

    /// Gives the complete file the name `path` when nothing has it: false with `errno`
    /// `EEXIST` when something does (it is never replaced), or another reason.
    func link(to path: String) -> Bool {
        if let name { return SystemFiles.link(name.path, to: path) }
        return SystemFiles.link(descriptor: fd, to: path)
    }

    /// Gives the complete file the name `path` in place of what has it (`rename(2)`); an
    /// unnamed file is first given a temporary name beside it.
    func rename(to path: String) -> Bool {
        if name == nil {
            let directory = SystemFiles.directory(of: path)
            for _ in 0..<100 {
                let candidate = SystemFiles.join(directory, TemporaryNames.prefix + Self.randomSuffix())
                // Registered before it exists, so that a signal in between still removes it.
                let slot = TemporaryNames.register(candidate)
                if SystemFiles.link(descriptor: fd, to: candidate) {
                    name = (candidate, slot)
                    break
                }
                let failure = errno
                if let slot { TemporaryNames.release(slot) }
                errno = failure
                if failure != EEXIST { return false }
            }
        }
        guard let name, SystemFiles.rename(name.path, to: path) else { return false }
        forgetName(removing: false)
        return true
    }

    /// Stops keeping the name (the file now has its final one), removing it when asked.
    private func forgetName(removing: Bool) {
        guard let name else { return }
        if removing { SystemFiles.remove(name.path) }
        if let slot = name.slot { TemporaryNames.release(slot) }
        self.name = nil
    }

    /// Six letters and digits, as mkstemp(3) would choose.
    private static func randomSuffix() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<6).map { _ in letters.randomElement()! })
    }

    /// `linkat(2)` names an unnamed file through /proc/self/fd, which a chroot or a container
    /// may lack.
    private static let canNameDescriptors = access("/proc/self/fd", X_OK) == 0
}

/// The names of the temporary files this process is writing, kept where a signal handler can
/// remove them: fixed C buffers, flags of type `sig_atomic_t`, and `unlink(2)`, all
/// async-signal-safe.
enum TemporaryNames {
    /// `.qrseal-PID-`: a later run removes the files of a process that is gone.
    static var prefix: String { ".qrseal-\(getpid())-" }

    private static let slots = 32
    private static let size = Int(PATH_MAX)
    private static let lock = Lock()
    nonisolated(unsafe) private static var taken = [Bool](repeating: false, count: slots)
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: slots * size)
        buffer.initialize(repeating: 0, count: slots * size)
        return buffer
    }()
    nonisolated(unsafe) private static let filled: UnsafeMutablePointer<sig_atomic_t> = {
        let flags = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: slots)
        flags.initialize(repeating: 0, count: slots)
        return flags
    }()

    /// Keeps `path` in a free slot; nil when none is free or the path is too long (the file is
    /// then left to a later run's sweep).
    static func register(_ path: String) -> Int? {
        let bytes = RawBytes.bytes(path)
        guard bytes.count < size, let slot = lock.withLock({ () -> Int? in
            guard let slot = taken.firstIndex(of: false) else { return nil }
            taken[slot] = true
            return slot
        }) else { return nil }
        for (i, byte) in bytes.enumerated() { paths[slot * size + i] = CChar(bitPattern: byte) }
        paths[slot * size + bytes.count] = 0
        filled[slot] = 1
        return slot
    }

    static func release(_ slot: Int) {
        filled[slot] = 0
        lock.withLock { taken[slot] = false }
    }

    /// Removes every file named in a slot, and the files of every group placed so far: the
    /// signal handler's work.
    static func removeAll() {
        for slot in 0..<slots where filled[slot] != 0 { unlink(paths + slot * size) }
        for g in 0..<groupSlots {
            guard let names = groups[g] else { continue }
            for i in 0..<Int(groupPlaced[g]) { unlink(names + i * size) }
        }
    }

    // MARK: Files written all or none

    /// Groups of files written all or none at once (a message's parts, one file each).
    private static let groupSlots = 8
    nonisolated(unsafe) private static var groups = [UnsafeMutablePointer<CChar>?](repeating: nil, count: groupSlots)
    nonisolated(unsafe) private static let groupPlaced: UnsafeMutablePointer<sig_atomic_t> = {
        let counts = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: groupSlots)
        counts.initialize(repeating: 0, count: groupSlots)
        return counts
    }()

    /// Keeps `paths`, the names a group of files will take one after another, for the signal
    /// handler; nil when no slot is free or a path is too long (the group is then not undone
    /// by a signal).
    static func beginGroup(_ paths: [String]) -> Int? {
        let all = paths.map(RawBytes.bytes)
        guard all.allSatisfy({ $0.count < size }) else { return nil }
        let names = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, all.count) * size)
        names.initialize(repeating: 0, count: max(1, all.count) * size)
        for (i, bytes) in all.enumerated() {
            for (j, byte) in bytes.enumerated() { names[i * size + j] = CChar(bitPattern: byte) }
        }
        let slot: Int? = lock.withLock {
            guard let slot = groups.firstIndex(where: { $0 == nil }) else { return nil }
            groupPlaced[slot] = 0
            groups[slot] = names
            return slot
        }
        if slot == nil { names.deallocate() }
        return slot
    }

    /// Counts the group's first `count` names as (about to be) given: a signal removes them.
    static func placed(_ slot: Int, count: Int) { groupPlaced[slot] = sig_atomic_t(count) }

    /// Forgets the group: its files stay, or are gone, as the caller left them.
    static func endGroup(_ slot: Int) {
        groupPlaced[slot] = 0
        let names = lock.withLock { () -> UnsafeMutablePointer<CChar>? in
            let names = groups[slot]
            groups[slot] = nil
            return names
        }
        names?.deallocate()
    }

    /// Installs the handler that removes the files and then ends the process by the same
    /// signal, for SIGTERM, SIGINT and SIGHUP; a signal the parent ignored stays ignored.
    /// The process's start only (`QRSealCLI.prepareProcess`): live scans and the passphrase
    /// prompt put their own handlers in front for a while and then put this one back.
    static func installHandlers() {
        _ = paths
        _ = filled
        // A parent may have started us with them blocked (the mask is inherited, as test
        // runners leave it): unblocked here, before any other thread starts, so that they
        // end the process as they should.
        var handled = sigset_t()
        sigemptyset(&handled)
        defer { pthread_sigmask(SIG_UNBLOCK, &handled, nil) }
        for number in [SIGTERM, SIGINT, SIGHUP] {
            var old = sigaction()
            guard sigaction(number, nil, &old) == 0,
                  unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self)
            else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                TemporaryNames.removeAll()
                // Delivered when the handler returns (SA_RESETHAND made the action the default).
                raise(number)
            }
            sigfillset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
            if sigaction(number, &action, nil) == 0 { sigaddset(&handled, number) }
        }
    }

    /// Removes the temporary files in `directory` left by processes of this user that are gone
    /// (`.qrseal-PID-…` where no process PID exists).
    static func sweep(_ directory: String) {
        guard let names = SystemFiles.names(in: directory) else { return }
        for name in names where name.hasPrefix(".qrseal-") {
            let fields = name.split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].count == 6, let pid = pid_t(fields[1]), pid > 0,
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = SystemFiles.join(directory, name)
            guard let info = SystemFiles.status(path, followLinks: false), info.st_uid == geteuid(),
                  (info.st_mode & S_IFMT) == S_IFREG else { continue }
            SystemFiles.remove(path)
        }
    }
}
