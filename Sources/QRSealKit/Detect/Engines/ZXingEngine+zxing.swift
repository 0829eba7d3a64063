import CEngine

/// Reads symbols from a grayscale raster with zxing-cpp, in the `qrseal-engine` helper
/// process (`qe_read_zxing`, which runs CZXingShim's `zxs_read_gray`, which calls
/// `ZXing::ReadBarcodes`): libZXing's failed assertions and memory errors end the helper,
/// not qrseal, and are told to `failures` (`Engine`).
///
/// zxing-cpp finds QR codes that zbar misses (tilted, partly hidden, low-resolution, two
/// in one) and is several times faster, and alone reads Micro QR, Data Matrix, Aztec,
/// PDF417 and MaxiCode (libZXing 1.4 has no MicroPDF417, rMQR or DataBar Limited); zbar reads light-on-dark codes and some damaged ones that zxing-cpp 1.4 does
/// not. Results that fail their checksum are never returned. The shim reads linear codes
/// one per libZXing call, so that libZXing 1.4's assertion on repeated linear results
/// cannot end the process (see zxing_shim.h).
struct ZXingEngine: Sendable {
    /// How zxing-cpp turns gray into black and white (`ZXing::Binarizer`).
    enum Binarizer: Sendable {
        /// Threshold from the mean of each 8×8 block's neighbourhood (`LocalAverage`, zxing's default).
        case localAverage
        /// One threshold per image from its histogram (`GlobalHistogram`).
        case globalHistogram
    }

    let symbologies: Set<Symbology>
    /// Look harder, at some cost in time (`DecodeHints::tryHarder`).
    var tryHarder = true
    /// Also look at the image turned by 90°, 180° and 270° (`tryRotate`); matters for linear codes.
    var tryRotate = true
    /// Also look at smaller copies of large images (`tryDownscale`).
    var tryDownscale = true
    var binarizer = Binarizer.localAverage
    /// Also read an EAN-2 or EAN-5 add-on beside an EAN/UPC code (`EanAddOnSymbol::Read`):
    /// its digits then follow the main code's.
    var eanAddOns = false
    /// Told why zxing-cpp gave no answer, when it gave none.
    var failures: EngineFailures?
    /// The library's name in an `EngineFailure`.
    static let library = "zxing-cpp"

    /// Runs `qe_read_zxing` on `image` and copies every result out before `qe_free_results`.
    func scan(_ image: GrayImage) -> [Candidate] {
        let formats = symbologies.reduce(UInt32(0)) { $0 | $1.zxingFormats }
        // zxing-cpp takes sizes as int; larger images cannot reach here past ImageDecoder's limits,
        // but the check keeps the C call honest whatever a caller builds.
        guard formats != 0, image.width > 0, image.height > 0,
              image.width <= Int(Int32.max), image.height <= Int(Int32.max) else { return [] }
        var options = zxs_options(formats: formats, try_harder: tryHarder ? 1 : 0, try_rotate: tryRotate ? 1 : 0,
                                  try_downscale: tryDownscale ? 1 : 0,
                                  binarizer: binarizer == .globalHistogram
                                      ? Int32(ZXS_BINARIZER_GLOBAL_HISTOGRAM)
                                      : Int32(ZXS_BINARIZER_LOCAL_AVERAGE),
                                  max_symbols: 255, ean_add_ons: eanAddOns ? 1 : 0)
        let pixels = image.width * image.height
        let timeout = Self.timeout(pixels: pixels)
        var results = zxs_results()
        let outcome = Engine.pool.withEngine { engine in
            let outcome = image.pixels.withUnsafeBufferPointer { buffer in
                qe_read_zxing(engine, buffer.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                              &options, Self.memoryLimit(pixels: pixels), timeout, &results)
            }
            return EnginePool.failure(outcome, of: engine, library: Self.library, timeout: timeout)
        }
        defer { qe_free_results(&results) }
        switch outcome {
        case nil: failures?.add(EngineFailure(library: Self.library, cause: .unavailable("out of memory")))
        case let failure??: failures?.add(failure)
        case .some(nil):
            switch Int(results.error) {
            case Int(ZXS_ERROR_NO_MEMORY): failures?.add(EngineFailure(library: Self.library, cause: .failed("ran out of memory")))
            case Int(ZXS_ERROR_EXCEPTION): failures?.add(EngineFailure(library: Self.library, cause: .failed("failed with an exception")))
            default: break
            }
        }
        guard results.count > 0, let items = results.items else { return [] }
        return UnsafeBufferPointer(start: items, count: results.count).compactMap(Self.candidate).map { found in
            guard found.symbology == .maxiCode, found.corners.allSatisfy({ $0 == found.corners[0] }), let box = Self.darkBounds(image) else { return found }
            var placed = found
            placed.corners = box
            return placed
        }
    }

    /// The corners of the box round the pixels of `image` darker than the middle of its
    /// range; nil when it has no contrast. libZXing 1.4 reads a MaxiCode only as the symbol
    /// alone in the image (a "pure" one: the box round its dark pixels, which it finds itself)
    /// and reports it at (0, 0): placed there, it showed nowhere in `--annotate` and explained
    /// none of its own blocks to the plan, which ran the grey-profile reader on every
    /// MaxiCode in zxing-more (`PassPlan.unread`).
    static func darkBounds(_ image: GrayImage) -> [Point]? {
        guard let low = image.pixels.min(), let high = image.pixels.max(), high > low else { return nil }
        let middle = (Int(low) + Int(high)) / 2
        var x0 = image.width, y0 = image.height, x1 = -1, y1 = -1
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                for x in 0..<image.width where Int(p[y * image.width + x]) <= middle {
                    x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                }
            }
        }
        guard x1 >= x0, y1 >= y0 else { return nil }
        let (left, top, right, bottom) = (Double(x0), Double(y0), Double(x1 + 1), Double(y1 + 1))
        return [Point(x: left, y: top), Point(x: right, y: top), Point(x: right, y: bottom), Point(x: left, y: bottom)]
    }

    /// How long one read may take before the helper is stopped: far beyond what an image
    /// takes (a 12-megapixel photo's hardest search, about 2 s), so that only a hang meets it.
    static func timeout(pixels: Int) -> Int32 {
        Int32(clamping: 20_000 + pixels / 500)
    }

    /// The address space the helper may use for one read: its libraries, the image shared
    /// with it, and zxing-cpp's copies of it (a binarized one, its downscaled layers, the
    /// rotated ones) many times over.
    static func memoryLimit(pixels: Int) -> UInt64 {
        UInt64(1 << 30) + UInt64(pixels) * 24
    }

    /// Copies one `zxs_result` out of the shim's memory.
    private static func candidate(from result: zxs_result) -> Candidate? {
        guard let symbology = Symbology(zxingFormat: result.format) else { return nil }
        var bytes: [UInt8] = []
        if result.byte_count > 0, let data = result.bytes {
            bytes = Array(UnsafeBufferPointer(start: data, count: result.byte_count))
        }
        let c = withUnsafeBytes(of: result.corners) { Array($0.bindMemory(to: Int32.self)) }
        let corners = (0..<4).map { Point(x: Double(c[2 * $0]), y: Double(c[2 * $0 + 1])) }
        let level = withUnsafeBytes(of: result.ec_level) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        var sequence: StructuredAppend?
        if symbology == .qr, (1...16).contains(result.sequence_size), (0..<result.sequence_size).contains(result.sequence_index),
           result.sequence_parity >= 0 {
            sequence = StructuredAppend(index: Int(result.sequence_index), count: Int(result.sequence_size),
                                        parity: Int(result.sequence_parity))
        }
        return Candidate(symbology: symbology, bytes: bytes, corners: corners,
                         errorCorrection: symbology == .qr || symbology == .microQR ? ErrorCorrection(letter: level) : nil,
                         engineText: result.text.flatMap { text in
                             // Counted, not NUL-terminated: a binary payload's reading holds NULs.
                             text.withMemoryRebound(to: UInt8.self, capacity: result.text_length) {
                                 String(validating: UnsafeBufferPointer(start: $0, count: result.text_length), as: UTF8.self)
                             }
                         },
                         declaresCharacterSet: result.has_eci != 0, structuredAppend: sequence)
    }
}

extension Symbology {
    /// The `ZXS_FORMAT_*` bits (the same as `ZXing::BarcodeFormat`) that read this symbology.
    /// ISBNs are EAN-13s to zxing; `SymbolCheck` names them. None for rMQR and the linear
    /// codes libZXing 1.4 does not read (our own `RMQRReader` and `WidthReader` do).
    var zxingFormats: UInt32 {
        switch self {
        case .databarLimited, .telepen, .msi, .dxFilmEdge: return 0
        case .qr: return UInt32(ZXS_FORMAT_QRCODE)
        case .microQR: return UInt32(ZXS_FORMAT_MICRO_QRCODE)
        case .dataMatrix: return UInt32(ZXS_FORMAT_DATA_MATRIX)
        case .aztec: return UInt32(ZXS_FORMAT_AZTEC)
        case .pdf417: return UInt32(ZXS_FORMAT_PDF417)
        // libZXing 1.4 reads no MicroPDF417; our own reader does.
        case .microPDF417: return 0
        case .maxiCode: return UInt32(ZXS_FORMAT_MAXICODE)
        case .ean13, .isbn10, .isbn13: return UInt32(ZXS_FORMAT_EAN13)
        case .ean8: return UInt32(ZXS_FORMAT_EAN8)
        case .upca: return UInt32(ZXS_FORMAT_UPCA)
        case .upce: return UInt32(ZXS_FORMAT_UPCE)
        case .code128: return UInt32(ZXS_FORMAT_CODE128)
        case .code39, .code32: return UInt32(ZXS_FORMAT_CODE39)
        case .code93: return UInt32(ZXS_FORMAT_CODE93)
        case .i25: return UInt32(ZXS_FORMAT_ITF)
        case .databar: return UInt32(ZXS_FORMAT_DATABAR)
        case .databarExpanded: return UInt32(ZXS_FORMAT_DATABAR_EXPANDED)
        case .codabar: return UInt32(ZXS_FORMAT_CODABAR)
        case .rmqr: return 0
        }
    }

    init?(zxingFormat: UInt32) {
        // ISBNs share EAN-13's bit; zxing reports EAN-13.
        guard let match = Symbology.allCases.first(where: { $0.zxingFormats != 0 && $0.zxingFormats == zxingFormat && $0 != .isbn10 && $0 != .isbn13 })
        else { return nil }
        self = match
    }
}
