extension ImageDecoder {
    func decodeWebP(_ bytes: [UInt8]) throws(RasterError) -> GrayImage { throw .unsupported(format: "WebP", reason: "pending") }
    func decodeSVG(_ bytes: [UInt8]) throws(RasterError) -> GrayImage { throw .unsupported(format: "SVG", reason: "pending") }
    func decodeTIFFPages(_ bytes: [UInt8], _ take: (GrayImage) throws(RasterError) -> Bool) throws(RasterError) { throw .unsupported(format: "TIFF", reason: "pending") }
    func decodePDFPages(_ bytes: [UInt8], _ take: (GrayImage) throws(RasterError) -> Bool) throws(RasterError) { throw .unsupported(format: "PDF", reason: "pending") }
}
