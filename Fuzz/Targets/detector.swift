// The detector (`Detector.detect`) on small grayscale images: the first two bytes give the
// width (1…128), and the effort with the reading options (EAN add-ons, Code 39 as it
// stands), the rest are the pixels, row by row. Every symbol read must have a payload its
// symbology allows and finite corners near the image.
@testable import QRSealKit

let detectors = Effort.allCases.flatMap { effort in
    [ReadingOptions(), ReadingOptions(code39FullASCII: false, eanAddOns: true)].map { reading in
        // Every symbology, those read only when asked for too.
        var detector = Detector(symbologies: Set(Symbology.allCases), effort: effort)
        detector.timeBudget = .cpu(.milliseconds(50))
        detector.reading = reading
        return detector
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDetector(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard input.count > 2 else { return 0 }
    let width = Int(input[0]) % 128 + 1
    let detector = detectors[Int(input[1]) % detectors.count]
    let height = min((input.count - 2) / width, 128)
    guard height > 0 else { return 0 }
    let image = GrayImage(width: width, height: height, pixels: Array(input[2..<2 + width * height]))
    for detection in detector.detect(in: image) {
        require(!detection.corners.isEmpty, "a \(detection.symbology) without corners")
        require(SymbolCheck.payloadIsValid(detection.symbology, detection.bytes), "a \(detection.symbology) payload it cannot hold")
        for corner in detection.corners {
            require(corner.x.isFinite && corner.y.isFinite, "corner \(corner) is not finite")
            require(abs(corner.x) <= Double(2 * width) && abs(corner.y) <= Double(2 * height),
                    "corner \(corner) far outside \(width)x\(height)")
        }
    }
    return 0
}
