import CEngine
import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The engine: zxing-cpp in a helper process, so that what libZXing does on hostile input
/// (a failed assertion, here its Micro QR sampler's) ends the helper and not the caller,
/// and the caller says so instead of reporting nothing found.
@Suite("Engine: libraries in a helper process")
struct EngineProcessTests {
    static let abort = Tools.packageRoot.appendingPathComponent("Tests/Images/abort")

    func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode(Array(try Data(contentsOf: Self.abort.appendingPathComponent(name))))
    }

    @Test("a picture on which libZXing 1.4 asserts: the detector goes on, at every effort, and names the crash",
          arguments: Effort.allCases)
    func assertionEndsOnlyTheHelper(effort: Effort) throws {
        for name in ["microqr-sampler.png", "microqr-sampler-in-page.png"] {
            let report = Detector(effort: effort).examine(try image(name))
            #expect(report.detections.isEmpty)
            #expect(report.failures == [EngineFailure(library: "zxing-cpp", cause: .crashed(signal: SIGABRT))], "\(name)")
            #expect(report.failures.first?.description == "zxing-cpp crashed (SIGABRT, a failed assertion) in its helper process")
        }
    }

    @Test("after a crash the next image is read by a new helper, with every code it holds")
    func readsAfterACrash() throws {
        _ = Detector().examine(try image("microqr-sampler.png"))
        let code = try QREncoder().encode(.text("after the crash")).image(scale: 4, margin: 4)
        let report = Detector().examine(code)
        #expect(report.failures.isEmpty)
        #expect(report.detections.map { String(decoding: $0.bytes, as: UTF8.self) } == ["after the crash"])
    }

    let dir = try! TempDir()

    /// A pool of helpers that are `script`, a shell script standing in for qrseal-engine.
    func pool(_ script: String) throws -> EnginePool {
        // Written through a close-on-exec descriptor of our own, so that no program another
        // test starts meanwhile keeps it open for writing (exec would then fail, ETXTBSY).
        let path = dir.path("helper-\(script.hashValue)")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(fd >= 0)
        let text = Array(("#!/bin/sh\n" + script + "\n").utf8)
        try #require(write(fd, text, text.count) == text.count)
        close(fd)
        let pool = EnginePool()
        pool.executable = path
        return pool
    }

    func read(with pool: EnginePool, timeout: Int32 = 20_000) -> EngineFailure? {
        var options = zxs_options(formats: UInt32(ZXS_FORMAT_QRCODE), try_harder: 0, try_rotate: 0, try_downscale: 0,
                                  binarizer: 0, max_symbols: 1, ean_add_ons: 0)
        let pixels = [UInt8](repeating: 255, count: 64 * 64)
        // A script just written may still be open for writing in a child another test is
        // starting at that moment (until its exec closes it): exec then fails with ETXTBSY.
        for _ in 0..<40 {
            let failure = pool.withEngine { engine in
                var results = zxs_results()
                defer { qe_free_results(&results) }
                let outcome = qe_read_zxing(engine, pixels, 64, 64, 64, &options, 0, timeout, &results)
                return EnginePool.failure(outcome, of: engine, library: "zxing-cpp", timeout: timeout)
            } ?? nil
            if case .unavailable(let why)? = failure?.cause, why.hasSuffix("Text file busy") {
                usleep(50_000)
                continue
            }
            return failure
        }
        return nil
    }

    @Test("a helper that never answers is stopped at its deadline, and the read says so")
    func hangIsStopped() throws {
        let pool = try pool("exec sleep 600")
        #expect(read(with: pool, timeout: 300) == EngineFailure(library: "zxing-cpp", cause: .timedOut(seconds: 1)))
    }

    @Test("a helper that answers out of shape, or dies, is told apart from one that is missing")
    func brokenDeadAndMissing() throws {
        let garbage = try pool("head -c 16 /dev/zero >&3; sleep 5")
        #expect(read(with: garbage) == EngineFailure(library: "zxing-cpp", cause: .broken))
        let killed = try pool("kill -SEGV $$")
        #expect(read(with: killed) == EngineFailure(library: "zxing-cpp", cause: .crashed(signal: SIGSEGV)))
        let missing = EnginePool()
        missing.executable = "/nonexistent/qrseal-engine"
        let failure = read(with: missing)
        #expect(failure?.cause == .unavailable("/nonexistent/qrseal-engine: No such file or directory"))
    }

    @Test("the helper gets none of the caller's environment, where a passphrase may be")
    func noEnvironment() throws {
        let seen = dir.url.appendingPathComponent("env").path
        let pool = try pool("env > '\(seen)'")
        setenv("QRSEAL_ENGINE_TEST_SECRET", "correct horse battery staple", 1)
        defer { unsetenv("QRSEAL_ENGINE_TEST_SECRET") }
        _ = read(with: pool)
        let environment = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(!environment.contains("correct horse"))
        #expect(!environment.contains("QRSEAL"))
    }
}
