/// Reads images into symbols and opens sealed messages with the keys at hand: raster → detect,
/// and a `Classification` → opened. What becomes of each symbol after that is `Intake`'s.
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

    /// What a message turned out to hold.
    public enum Content: Sendable, Equatable {
        /// An ordinary code or text: its bytes are the message.
        case plain
        /// A sealed message, opened.
        case opened(Payload)
        /// A sealed message, not opened because no key of its kind was given.
        case locked(keyKind: KeyKind, size: Int)
        /// A sealed message that could not be opened: wrong key, altered, damaged or unsupported.
        case failed(SealError)

        /// Whether this is a sealed message left unopened for want of a key of `kind`.
        public func isLocked(_ kind: KeyKind) -> Bool {
            if case .locked(let k, _) = self { return k == kind }
            return false
        }
    }

    /// Every symbol in an image file's bytes, neither classified nor opened.
    public func detections(imageBytes: [UInt8]) throws(RasterError) -> [Detection] {
        detector.detect(in: try decoder.decode(imageBytes))
    }

    /// The content of what was received: opened when sealed and a key is at hand. A piece of
    /// a larger message is no message yet: its content is plain until `Intake` rebuilds it.
    public func open(_ received: Classification) -> Content {
        switch received {
        case .plain, .piece, .damagedPiece: return .plain
        case .sealed(let envelope), .age(let envelope): return open(envelope: envelope)
        case .damagedSealed(let error): return .failed(error)
        }
    }

    /// The content behind a symbol's payload.
    public func open(symbolBytes bytes: [UInt8]) -> Content {
        open(Classification(symbolBytes: bytes))
    }

    /// The content of an envelope or an age file: opened, still sealed (no key of its kind), or failed.
    public func open(envelope: [UInt8]) -> Content {
        do {
            if AgeFile.isAgeFile(envelope) { return .opened(try opener.openAge(envelope, keys: keys)) }
            return .opened(try opener.open(envelope, keys: keys))
        } catch .noKey(let kind) {
            return .locked(keyKind: kind, size: envelope.count)
        } catch {
            return .failed(error)
        }
    }
}
