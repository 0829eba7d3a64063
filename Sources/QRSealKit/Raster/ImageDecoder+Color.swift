extension ImageDecoder {
    /// Decodes `bytes` in colour, for pictures people look at (an annotated copy of an
    /// input), with the same size limits and geometry as `decode(_:)`: transparency over
    /// white, JPEG EXIF orientation applied. Other formats come back gray in RGB form.
    public func decodeColor(_ bytes: [UInt8]) throws(RasterError) -> RGBImage {
        guard !bytes.isEmpty else { throw .empty }
        switch Self.sniff(bytes) {
        case .png?: return try decodePNGColor(bytes)
        case .jpeg?: return try decodeJPEGColor(bytes)
        case .pnm?: return RGBImage(try decodePNM(bytes))
        case .some: return RGBImage(try decode(bytes))
        case nil: throw .unknownFormat
        }
    }
}
