import CQREncode
import FoundationEssentials
import Glibc

/// Builds QR symbols from bytes with libqrencode, choosing segments and version.
public struct QREncoder: Sendable {
    public var level: ErrorCorrection
    /// The smallest version to use; a larger one is taken when the data needs it.
    public var minVersion: Int

    public init(level: ErrorCorrection = .medium, minVersion: Int = 1) {
        self.level = level
        self.minVersion = minVersion
    }

    /// What the input is, which decides how it may be segmented.
    public enum Content: Sendable {
        /// Text: the densest mix of numeric, alphanumeric and byte segments.
        case text(String)
        /// Arbitrary bytes: one byte-mode segment, exactly as given.
        case binary([UInt8])
        /// Segments chosen by the caller, used as they are.
        case segments([Segment])
    }

    /// Encodes `content` into the smallest symbol at `level` no smaller than `minVersion`.
    public func encode(_ content: Content) throws(SymbolError) -> QRMatrix {
        guard QRCapacity.versions.contains(minVersion) else { throw .badVersion(minVersion) }
        // Nothing longer than this fits in any mode: refuse it before planning, and find the
        // largest fitting prefix within that much, so that the work never grows with the input.
        let bound = QRCapacity.mostBytes(level: level)
        guard content.byteCount <= bound else {
            throw .tooLarge(size: content.byteCount, fits: largestFittingPrefix(content.prefix(bound)), level: level)
        }
        guard let (version, segments) = plan(content) else {
            throw .tooLarge(size: content.byteCount, fits: largestFittingPrefix(content), level: level)
        }
        return try build(segments, version: version)
    }

    /// The smallest version ≥ `minVersion` the content fits, with its segments; nil when none.
    func plan(_ content: Content) -> (Int, [Segment])? {
        var cached: [Int: [Segment]] = [:]  // one plan per count-field size group
        for version in minVersion...QRCapacity.versions.upperBound {
            let group = version <= 9 ? 1 : (version <= 26 ? 10 : 27)
            let segments = cached[group] ?? content.segments(version: version)
            cached[group] = segments
            if segments.bitLength(version: version) <= QRCapacity.dataBits(version: version, level: level) {
                return (version, segments)
            }
        }
        return nil
    }

    /// The most bytes of `content`'s start (cut at a character boundary for text) that fit.
    func largestFittingPrefix(_ content: Content) -> Int {
        var low = 0, high = content.byteCount
        while low < high {
            let mid = (low + high + 1) / 2
            if plan(content.prefix(mid)) != nil { low = mid } else { high = mid - 1 }
        }
        return content.prefix(low).byteCount
    }

    /// Calls QRinput_new2, QRinput_append per segment and QRcode_encodeInput.
    private func build(_ segments: [Segment], version: Int) throws(SymbolError) -> QRMatrix {
        guard let input = QRinput_new2(Int32(version), level.cLevel) else {
            throw .encoderFailed(String(cString: strerror(errno)))
        }
        defer { QRinput_free(input) }
        for segment in segments {
            let status = segment.bytes.withUnsafeBufferPointer {
                QRinput_append(input, segment.mode.cMode, Int32($0.count), $0.baseAddress)
            }
            guard status == 0 else { throw .encoderFailed(String(cString: strerror(errno))) }
        }
        guard let code = QRcode_encodeInput(input) else {
            throw .encoderFailed(String(cString: strerror(errno)))
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each module byte is 1 for a dark module (qrencode.h).
        let modules = (0..<size * size).map { code.pointee.data[$0] & 1 == 1 }
        return QRMatrix(size: size, version: Int(code.pointee.version), level: level, modules: modules)
    }
}

extension QREncoder.Content {
    /// The input's length in bytes, without copying it.
    var byteCount: Int {
        switch self {
        case .text(let s): return s.utf8.count
        case .binary(let b): return b.count
        case .segments(let list): return list.reduce(0) { $0 + $1.bytes.count }
        }
    }

    func segments(version: Int) -> [Segment] {
        switch self {
        case .text(let s): return SegmentPlanner.plan(Array(s.utf8), version: version)
        case .binary(let b): return b.isEmpty ? [] : [Segment(mode: .byte, bytes: b)]
        case .segments(let list): return list
        }
    }

    /// The content cut to at most `count` bytes, never inside a character.
    func prefix(_ count: Int) -> Self {
        switch self {
        case .binary(let b): return .binary(Array(b.prefix(count)))
        case .segments(let list):
            var left = count
            var kept: [Segment] = []
            for s in list where left > 0 {
                kept.append(Segment(mode: s.mode, bytes: Array(s.bytes.prefix(left))))
                left -= min(left, s.bytes.count)
            }
            return .segments(kept)
        case .text(let s):
            var used = 0
            var end = s.unicodeScalars.startIndex
            for scalar in s.unicodeScalars {
                let width = UTF8.width(scalar)
                if used + width > count { break }
                used += width
                end = s.unicodeScalars.index(after: end)
            }
            return .text(String(s.unicodeScalars[..<end]))
        }
    }
}

extension ErrorCorrection {
    var cLevel: QRecLevel {
        switch self {
        case .low: return QR_ECLEVEL_L
        case .medium: return QR_ECLEVEL_M
        case .quartile: return QR_ECLEVEL_Q
        case .high: return QR_ECLEVEL_H
        }
    }
}

extension Segment.Mode {
    var cMode: QRencodeMode {
        switch self {
        case .numeric: return QR_MODE_NUM
        case .alphanumeric: return QR_MODE_AN
        case .byte: return QR_MODE_8
        }
    }
}
