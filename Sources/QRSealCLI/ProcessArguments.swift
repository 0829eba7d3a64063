import Foundation
import QRSealKit

extension QRSealCLI {
    /// The process's arguments after the program name, from their own bytes: bytes that are
    /// not UTF-8 are kept (`RawBytes`) where `CommandLine.arguments` would turn them into
    /// U+FFFD, so that a file named by them is found, and written, under that very name.
    public static func processArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return RawBytes.string(UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) })
        }
    }

    /// Runs the process again with `OMP_THREAD_LIMIT=1` when it is to recognise text and the
    /// variable is unset. Tesseract's OpenMP runtime reads the limit once, as it loads, before
    /// any Swift code runs, so setting it later has no effect; unlimited, its threads fight
    /// over the cores (a 1294×1680 page: 7.2 s, against 2.3 s limited, on 2 loaded cores),
    /// and we scan images side by side ourselves. Returns only when there is nothing to do
    /// or the exec failed; `main.swift` calls it before `run`.
    public static func limitTextThreads() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.first == "scan", getenv("OMP_THREAD_LIMIT") == nil,
              arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--text" || $0 == "--text-only" })
        else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        unsetenv("OMP_THREAD_LIMIT")
    }
}
