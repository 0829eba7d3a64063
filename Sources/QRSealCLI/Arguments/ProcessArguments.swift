import FoundationEssentials
import Glibc
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

    /// Sets `OMP_THREAD_LIMIT=1` when the process is to recognise text and the variable is
    /// unset. Tesseract's OpenMP runtime (libgomp) reads the limit once, as it loads, and it
    /// loads with Tesseract when text is first recognised (`CLoader`), after this has run;
    /// unlimited, its threads fight over the cores (a 1294×1680 page: 7.2 s, against 2.3 s
    /// limited, on 2 loaded cores), and we scan images side by side ourselves. Setting it
    /// here, rather than starting the process again with it, saves a second start-up (a
    /// tenth of a sparse camera frame's time). `main.swift` calls it before `run`.
    public static func limitTextThreads() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.first == "scan", getenv("OMP_THREAD_LIMIT") == nil,
              arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--text" || $0 == "--text-only" })
        else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
    }
}
