/// Reads images into symbols and opens the sealed ones: raster → detect → classify → open.
public struct Reader: Sendable {
    public var decoder: ImageDecoder
    public var detector: Detector
    /// Opens the sealed messages; its budget is shared by every message this reader and its
    /// copies open.
    public var opener: Opener
    /// Keys to try on sealed messages; none means sealed messages are reported, not opened.
    public var keys: [SealKey]

    public init(decoder: ImageDecoder = ImageDecoder(), detector: Detector = Detector(),
                opener: Opener = Opener(), keys: [SealKey] = []) {
        self.decoder = decoder
        self.detector = detector
        self.opener = opener
        self.keys = keys
    }

    /// What a symbol turned out to hold.
    public enum Content: Sendable, Equatable {
        /// An ordinary code: its bytes are the message.
        case plain
        /// A sealed message, opened.
        case opened(Payload)
        /// A sealed message, not opened because no key of its kind was given.
        case sealed(keyKind: String, size: Int)
        /// A sealed message that could not be opened: wrong key, altered, damaged or unsupported.
        case failed(SealError)
    }

    public struct Item: Sendable {
        public let detection: Detection
        public let content: Content
    }

    /// Every symbol in an image file's bytes, each classified and, when sealed, opened.
    public func read(imageBytes: [UInt8]) throws(RasterError) -> [Item] {
        let image = try decoder.decode(imageBytes)
        return detector.detect(in: image).map(classify)
    }

    /// Classifies one symbol, opening it when it is sealed and a key is at hand.
    public func classify(_ detection: Detection) -> Item {
        Item(detection: detection, content: open(symbolBytes: detection.bytes))
    }

    /// The content behind a symbol's payload.
    public func open(symbolBytes bytes: [UInt8]) -> Content {
        if AgeFile.isAgeFile(bytes) { return open(envelope: bytes) }
        guard Armor.isSealed(bytes) else { return .plain }
        do {
            guard let envelope = try Armor.envelope(fromSymbol: bytes) else { return .plain }
            return open(envelope: envelope)
        } catch {
            return .failed(error)
        }
    }

    /// The content of an envelope or an age file: opened, still sealed (no key of its kind), or failed.
    public func open(envelope: [UInt8]) -> Content {
        do {
            if AgeFile.isAgeFile(envelope) { return .opened(try opener.openAge(envelope, keys: keys)) }
            return .opened(try opener.open(envelope, keys: keys))
        } catch .noKey {
            let kind = (try? opener.keyKind(envelope)) ?? "key"
            return .sealed(keyKind: kind, size: envelope.count)
        } catch {
            return .failed(error)
        }
    }
}
