import CPoppler

extension ImageDecoder {
    /// The resolution PDF pages are drawn at: a code printed at 0.5 mm a module (qrseal's
    /// sheets use more) gets about 6 pixels a module.
    public static let pdfResolution = 300.0

    /// Draws every page of a PDF at `pdfResolution` dpi (lower when a page would pass the
    /// pixel limit) onto a white page, with poppler's GLib interface on cairo
    /// (`poppler_document_new_from_data`, `poppler_document_get_page`, `poppler_page_render`);
    /// `take` returns false to stop early. Encrypted files and damaged ones are refused with
    /// poppler's reason.
    func decodePDFPages(_ bytes: [UInt8], _ take: (GrayImage) throws(RasterError) -> Bool) throws(RasterError) {
        do { try SharedLibrary.poppler.load() } catch { throw .library(format: "PDF", error) }
        guard bytes.count <= Int(Int32.max) else { throw .damaged(format: "PDF", reason: "larger than 2 GB") }
        // poppler reads from the bytes in place, for as long as the document lives.
        var data = bytes.map { CChar(bitPattern: $0) }
        try data.withUnsafeMutableBufferPointer { buffer throws(RasterError) in
            var error: UnsafeMutablePointer<qrseal_gerror>?
            guard let document = poppler_document_new_from_data(buffer.baseAddress, Int32(buffer.count), nil, &error) else {
                throw Self.popplerError(error)
            }
            defer { g_object_unref(UnsafeMutableRawPointer(document)) }
            let count = Int(poppler_document_get_n_pages(document))
            guard count > 0 else { throw .damaged(format: "PDF", reason: "no pages") }
            for index in 0..<count {
                guard let page = poppler_document_get_page(document, Int32(index)) else {
                    throw .damaged(format: "PDF", reason: "page \(index + 1) cannot be read")
                }
                defer { g_object_unref(UnsafeMutableRawPointer(page)) }
                var points = (width: 0.0, height: 0.0)
                poppler_page_get_size(page, &points.width, &points.height)
                let scale = drawingScale(width: points.width, height: points.height, preferred: Self.pdfResolution / 72)
                let (width, height) = pixelSize(points.width, points.height, scale: scale)
                let image = try drawn(format: "PDF", width: width, height: height, scale: scale) { cr in
                    poppler_page_render(page, cr)
                }
                guard try take(image) else { return }
            }
        }
    }

    /// poppler's qrseal_gerror as a `RasterError`, freed.
    private static func popplerError(_ error: UnsafeMutablePointer<qrseal_gerror>?) -> RasterError {
        guard let error else { return .damaged(format: "PDF", reason: "unreadable document") }
        defer { qrseal_g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unreadable document"
        return .damaged(format: "PDF", libraryMessage: message)
    }
}
