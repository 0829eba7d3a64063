import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Where every front end finds the user's inbox, keys and configuration, from the
/// environment it hands over.
@Suite("Support: the user's files")
struct UserFilesTests {
    @Test("XDG directories when set to absolute paths, else HOME's defaults; QRSEAL_INBOX and a given path win")
    func places() throws {
        let home = UserFiles(environment: ["HOME": "/home/ann"])
        #expect(try home.dataDirectory() == "/home/ann/.local/share/qrseal")
        #expect(try home.inboxPath() == "/home/ann/.local/share/qrseal/inbox.sqlite")
        #expect(try home.keyring().directory == "/home/ann/.local/share/qrseal/keys")
        #expect(home.configPath == "/home/ann/.config/qrseal/config")
        #expect(home.cacheDirectory == "/home/ann/.cache/qrseal")
        let xdg = UserFiles(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c",
                                          "XDG_CACHE_HOME": "relative", "QRSEAL_INBOX": "/i.sqlite"])
        #expect(try xdg.dataDirectory() == "/d/qrseal")
        #expect(xdg.configPath == "/c/qrseal/config")
        #expect(xdg.cacheDirectory == "/home/ann/.cache/qrseal", "a relative XDG path is ignored, as the spec says")
        #expect(try xdg.inboxPath() == "/i.sqlite")
        #expect(try xdg.inboxPath(given: "/given.sqlite") == "/given.sqlite")
        #expect(throws: UserFiles.Failure.noDataDirectory) { try UserFiles(environment: [:]).dataDirectory() }
    }

    @Test("the configuration file: settings, comments, a bad line named by number, a bad dedupe value, an unknown key")
    func config() throws {
        let folder = try TempDir()
        let files = UserFiles(environment: ["HOME": "/nowhere", "XDG_CONFIG_HOME": folder.url.path])
        #expect(try files.config() == [:], "no file: no settings")
        #expect(try files.dedupePolicy() == .consecutive)
        try FileManager.default.createDirectory(atPath: folder.url.path + "/qrseal", withIntermediateDirectories: true)
        let path = folder.url.path + "/qrseal/config"
        try Data("# mine\ndedupe = Always  # every time\n\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try files.config() == ["dedupe": "Always"])
        #expect(try files.dedupePolicy() == .always)
        try Data("dedupe = often\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: UserFiles.Failure.badConfigValue(path: path, key: "dedupe", value: "often",
                                                         expected: "consecutive, always or never")) { try files.dedupePolicy() }
        try Data("dedupe = never\nno equals sign\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: UserFiles.Failure.badConfigLine(path: path, line: 2)) { try files.config() }
        try Data("# mine\ndedup = never\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: UserFiles.Failure.unknownConfigKey(path: path, line: 2, key: "dedup")) { try files.config() }
    }
}
