/// Reads the DX film edge code of 35 mm film (ISO 1007, as zxing-cpp 3.1 reads it) from the
/// element widths of two scan lines (`WidthReader`): one across its clock track, one
/// across its data track beside it.
///
/// The clock track is a 5-module bar, 23 (or, without a frame number, 15) alternating
/// single modules and a 3-module bar: 31 (23) modules that give the module. The data track
/// beside it, between the same ends, is a start (bar, space, bar, space, bar), 23 (15) data
/// modules and a stop (bar, space, bar). Of the data modules (dark for 1), the first, the
/// ninth and the last (and, with a frame number, the 21st) are always light, the one
/// before the last is even parity over those before it; modules 2 to 8 are the product
/// number (DX 1, never 0), 10 to 13 the generation (DX 2), and with a frame number 14 to
/// 19 the frame and 20 a half frame (A). The text is as zxing-cpp gives it: `36-2/21`,
/// `10-3`, `115-10/11A`.
enum DXFilmEdgeDecoder {
    /// A clock track found on one scan line: where it starts and stops (samples, in the
    /// direction of reading) and whether it calls for a frame number.
    struct Clock: Equatable {
        var start: Double, stop: Double
        var hasFrameNumber: Bool
        var reversed: Bool
        var modules: Int { hasFrameNumber ? 31 : 23 }
        var dataBits: Int { hasFrameNumber ? 23 : 15 }
        var module: Double { (stop - start) / Double(modules) }
    }

    /// The clock track patterns, in modules.
    static let clockWithFrame = [5] + [Int](repeating: 1, count: 23) + [3]
    static let clockWithoutFrame = [5] + [Int](repeating: 1, count: 15) + [3]

    /// Whether `widths` are `pattern` at `module`.
    static func matches(_ widths: ArraySlice<Double>, _ pattern: [Int], module: Double) -> Bool {
        widths.count == pattern.count
            && zip(widths, pattern).allSatisfy { w, p in abs(w / module - Double(p)) <= (p == 1 ? 0.5 : 0.8) }
    }

    /// The clock tracks of `run`, read both ways, in the run's own samples.
    static func clocks(_ run: ElementRun) -> [Clock] {
        var found: [Clock] = []
        for reversed in [false, true] {
            let r = reversed ? run.reversed : run
            let widths = r.widths
            for start in stride(from: r.firstDark == 0 ? 2 : 1, to: widths.count - 17, by: 2) {
                // Cheap first: the wide bar, then single modules.
                guard widths[start] > 2.5 * widths[start + 1], widths[start] > 2.5 * widths[start + 2] else { continue }
                for (pattern, frame) in [(clockWithFrame, true), (clockWithoutFrame, false)] {
                    let end = start + pattern.count
                    guard end < widths.count else { continue }
                    let module = widths[start..<end].reduce(0, +) / Double(pattern.reduce(0, +))
                    guard module > 0.8, matches(widths[start..<end], pattern, module: module),
                          widths[start - 1] >= module, widths[end] >= module else { continue }
                    let a = r.edges[start], b = r.edges[end]
                    found.append(Clock(start: reversed ? run.unreversed(a) : a, stop: reversed ? run.unreversed(b) : b,
                                       hasFrameNumber: frame, reversed: reversed))
                }
            }
        }
        return found
    }

    /// The data tracks beside `clocks` in `runs` (those of the other bands), with their
    /// texts and ends: for each clock, the first that checks (a strip of film holds several
    /// codes, one a half frame). Nil when two tracks beside one clock read differently.
    static func read(_ runs: [ElementRun], clocks: [Clock]) -> [(bytes: [UInt8], ends: (Double, Double))] {
        var found: [(bytes: [UInt8], ends: (Double, Double))] = []
        for clock in clocks where !found.contains(where: { abs($0.ends.0 - clock.start) < clock.module * 2 }) {
            var read: [UInt8]?
            for run in runs {
                let r = clock.reversed ? run.reversed : run
                let start = clock.reversed ? run.unreversed(clock.start) : clock.start
                let stop = clock.reversed ? run.unreversed(clock.stop) : clock.stop
                let local = Clock(start: start, stop: stop, hasFrameNumber: clock.hasFrameNumber, reversed: false)
                guard let bytes = data(r, clock: local) else { continue }
                // Two tracks beside one clock that read differently: neither is trusted.
                if let earlier = read, earlier != bytes { read = nil; break }
                read = bytes
            }
            if let read { found.append((read, (clock.start, clock.stop))) }
        }
        return found
    }

    /// The text of the data track of `run` between `clock`'s ends, nil when there is none
    /// or it fails a check.
    static func data(_ run: ElementRun, clock: Clock) -> [UInt8]? {
        let widths = run.widths, module = clock.module
        // The start's first bar begins where the clock does.
        guard let first = stride(from: run.firstDark == 0 ? 2 : 1, to: widths.count, by: 2)
            .first(where: { abs(run.edges[$0] - clock.start) < 0.75 * module }),
              first + 5 < widths.count, widths[first - 1] >= 0.5 * module,
              matches(widths[first..<(first + 5)], [1, 1, 1, 1, 1], module: module) else { return nil }
        var bits: [Bool] = [], k = first + 5
        while bits.count < clock.dataBits, k < widths.count - 1 {
            let count = Int((widths[k] / module).rounded())
            guard count >= 1 else { return nil }
            bits += [Bool](repeating: run.isDark(k), count: count)
            k += 1
        }
        guard bits.count == clock.dataBits, k + 3 < widths.count,
              matches(widths[k..<(k + 3)], [1, 1, 1], module: module),
              abs(run.edges[k + 3] - clock.stop) < module, widths[k + 3] >= 0.5 * module else { return nil }
        let n = bits.count
        guard !bits[0], !bits[8], !bits[n - 1], !clock.hasFrameNumber || !bits[20] else { return nil }
        guard bits[0..<(n - 2)].filter({ $0 }).count % 2 == (bits[n - 2] ? 1 : 0) else { return nil }
        func number(_ range: Range<Int>) -> Int { bits[range].reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }
        let product = number(1..<8), generation = number(9..<13)
        guard product > 0 else { return nil }
        var text = "\(product)-\(generation)"
        if clock.hasFrameNumber {
            text += "/\(number(13..<19))" + (bits[19] ? "A" : "")
        }
        return Array(text.utf8)
    }
}
