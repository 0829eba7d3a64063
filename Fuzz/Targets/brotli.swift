// Brotli decompression with the cap (`Compression.decompress`): any bytes are refused or
// decompress to at most the limit, and the cap is exact: a limit one byte smaller refuses.
@testable import QRSealKit

let limit = 1 << 16

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBrotli(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let result = Result { () throws(SealError) in try Compression.decompress(input, limit: limit) }
    guard case .success(let output) = result else {
        if case .failure(.contentTooLarge(let cap)) = result { require(cap == limit, "wrong limit reported") }
        return 0
    }
    require(output.count <= limit, "\(output.count) bytes pass the limit \(limit)")
    guard !output.isEmpty else { return 0 }
    let exact = try? Compression.decompress(input, limit: output.count)
    require(exact == output, "decompression is not the same at an exact limit")
    let under = Result { () throws(SealError) in try Compression.decompress(input, limit: output.count - 1) }
    guard case .failure(.contentTooLarge) = under else {
        fatalError("invariant failed: a limit below the size did not refuse: \(under)")
    }
    return 0
}
