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
}
