import FoundationEssentials
import Glibc

/// Where an image may hold the bars of a linear code: blocks whose gradients are strong and
/// all point one way (the structure tensor's coherence), joined with their neighbours of
/// the same direction, that a line across shows several bars in (`BarRegions.minBars`).
/// Cheap, so an image without bars costs little more than one look at its pixels.
struct BarRegion: Sendable {
    /// The centre, in image pixels.
    var x: Double, y: Double
    /// The direction across the bars, radians.
    var angle: Double
    /// Half the region's extent across the bars and along them, pixels.
    var across: Double, along: Double
    /// The dark bars the lines across it cross (`BarRegions.bars(across:in:)`), once counted.
    var bars = 0
}

enum BarRegions {
    /// Side of a block, in pixels of the image the tensor is taken on.
    static let block = 8
    /// Mean squared gradient (central differences) below which a block is flat.
    static let minEnergy = 60.0
    /// Coherence below which a block's gradients point too many ways.
    static let minCoherence = 0.7
    /// The share of the textured blocks in a region's box that must belong to it.
    static let minShare = 0.4
    /// Blocks a region needs.
    static let minBlocks = 6
    /// Pixels a region must reach across the bars either side of its centre: the 51
    /// modules of a UPC-E at under a pixel each.
    static let minAcross = 20.0
    /// How many times longer across its bars than along them a part of a region that was
    /// not bars must be to be kept (`find(in:most:)`).
    static let minStrip = 3.0
    /// The fewest dark bars the lines across a region must cross (`bars(across:in:)`):
    /// fewer than a whole symbol has (a UPC-E, the shortest, 17), left for a region that
    /// holds part of one: a MicroPDF417's row address column, three bars and its stop's, or
    /// a part of a code whose widest bars, flat inside, part it from the rest. A
    /// photographed page's edge against a desk, one long coherent edge, crosses at most
    /// two (the generated sheets).
    static let minBars = 4
    /// The regions kept, largest first.
    static let maxRegions = 3
    /// Above this many pixels, blocks are taken on a copy shrunk to it.
    static let maxPixels = 1_500_000

    /// The regions of `image`, largest first, at most `most`, each crossing at least
    /// `leastBars` bars. An image too thin for blocks is one region along its longer side,
    /// when that crosses bars: a blank strip of millions of pixels holds no code to copy
    /// and read again.
    static func find(in image: GrayImage, most: Int = maxRegions, leastBars: Int = minBars) -> [BarRegion] {
        let w = image.width, h = image.height
        if min(w, h) < 2 * block {
            let horizontal = w >= h
            var strip = BarRegion(x: Double(w) / 2, y: Double(h) / 2, angle: horizontal ? 0 : .pi / 2,
                                  across: Double(horizontal ? w : h) / 2, along: Double(horizontal ? h : w) / 2)
            strip.bars = bars(across: strip, in: image)
            return strip.bars >= leastBars ? [strip] : []
        }
        var source = image, scale = 1.0
        if w * h > maxPixels, let small = image.scaled(by: (Double(maxPixels) / Double(w * h)).squareRoot()) {
            source = small
            scale = Double(w) / Double(small.width)
        }
        let bw = source.width / block, bh = source.height / block
        var jxx = [Double](repeating: 0, count: bw * bh), jyy = jxx, jxy = jxx
        source.pixels.withUnsafeBufferPointer { p in
            let sw = source.width
            for by in 0..<bh {
                for bx in 0..<bw {
                    // Whole numbers: the same sums as in floating point, at less cost.
                    var xx = 0, yy = 0, xy = 0
                    for y in max(1, by * block)..<min(source.height - 1, (by + 1) * block) {
                        let row = y * sw
                        for x in max(1, bx * block)..<min(sw - 1, (bx + 1) * block) {
                            let gx = Int(p[row + x + 1]) - Int(p[row + x - 1])
                            let gy = Int(p[row + x + sw]) - Int(p[row + x - sw])
                            xx += gx * gx; yy += gy * gy; xy += gx * gy
                        }
                    }
                    jxx[by * bw + bx] = Double(xx); jyy[by * bw + bx] = Double(yy); jxy[by * bw + bx] = Double(xy)
                }
            }
        }
        let area = Double(block * block)
        var angle = [Double](repeating: .nan, count: bw * bh)
        for i in angle.indices {
            let e = jxx[i] + jyy[i]
            guard e / area >= minEnergy else { continue }
            let coherence = ((jxx[i] - jyy[i]) * (jxx[i] - jyy[i]) + 4 * jxy[i] * jxy[i]).squareRoot() / e
            if coherence >= minCoherence { angle[i] = 0.5 * atan2(2 * jxy[i], jxx[i] - jyy[i]) }
        }
        // Joins blocks up to `reach` apart whose directions differ by less than 15°, among
        // `blocks` (coherent ones).
        var label = [Int](repeating: -1, count: bw * bh), inside = [Bool](repeating: false, count: bw * bh)
        func components(of blocks: [Int], reach: Int) -> [[Int]] {
            for i in blocks { inside[i] = true; label[i] = -1 }
            defer { for i in blocks { inside[i] = false } }
            var found: [[Int]] = []
            for seed in blocks where label[seed] < 0 {
                var stack = [seed], members: [Int] = []
                label[seed] = found.count
                while let i = stack.popLast() {
                    members.append(i)
                    let bx = i % bw, by = i / bw
                    for dy in -reach...reach {
                        for dx in -reach...reach {
                            let nx = bx + dx, ny = by + dy
                            guard nx >= 0, ny >= 0, nx < bw, ny < bh else { continue }
                            let j = ny * bw + nx
                            guard inside[j], label[j] < 0, angleDifference(angle[i], angle[j]) < .pi / 12 else { continue }
                            label[j] = found.count
                            stack.append(j)
                        }
                    }
                }
                found.append(members)
            }
            return found
        }
        // Bars make nearly every textured block of their box point one way; a QR code or
        // text, whose edges run both ways, leaves many incoherent textured blocks among them.
        func isBars(_ blocks: [Int]) -> Bool {
            let xs = blocks.map { $0 % bw }, ys = blocks.map { $0 / bw }
            var textured = 0
            for by in ys.min()!...ys.max()! {
                for bx in xs.min()!...xs.max()! where (jxx[by * bw + bx] + jyy[by * bw + bx]) / area >= minEnergy {
                    textured += 1
                }
            }
            return Double(blocks.count) >= minShare * Double(textured)
        }
        // The region `blocks` make: their centre, the bars' direction from their summed
        // tensor, and how far they reach across the bars and along them.
        func region(_ blocks: [Int]) -> BarRegion {
            var xx = 0.0, yy = 0.0, xy = 0.0, cx = 0.0, cy = 0.0
            for i in blocks {
                xx += jxx[i]; yy += jyy[i]; xy += jxy[i]
                cx += Double(i % bw) + 0.5; cy += Double(i / bw) + 0.5
            }
            let theta = 0.5 * atan2(2 * xy, xx - yy)
            cx /= Double(blocks.count); cy /= Double(blocks.count)
            let (c, s) = (cos(theta), sin(theta))
            var across = 0.5, along = 0.5
            for i in blocks {
                let dx = Double(i % bw) + 0.5 - cx, dy = Double(i / bw) + 0.5 - cy
                across = max(across, abs(dx * c + dy * s) + 0.5)
                along = max(along, abs(-dx * s + dy * c) + 0.5)
            }
            let f = Double(block) * scale
            return BarRegion(x: cx * f, y: cy * f, angle: theta, across: across * f, along: along * f)
        }
        // Blocks up to two apart are joined, bridging a block that noise or a wide space
        // left incoherent. A region that is not bars so joined is split into the blocks
        // that touch, and a part is kept when it is bars and a strip across them
        // (`minStrip`): short bars beside other edges of their direction (a DX film edge
        // code under the film's sprocket holes) join them across the gap, and the box of
        // both holds more other texture than bars; the parts of a photo's texture so split
        // are lines along their edges or blobs.
        var regions: [(region: BarRegion, size: Int)] = []
        for joined in components(of: angle.indices.filter { !angle[$0].isNaN }, reach: 2) where joined.count >= minBlocks {
            if isBars(joined) {
                regions.append((region(joined), joined.count))
                continue
            }
            for part in components(of: joined, reach: 1) where part.count >= minBlocks && isBars(part) {
                let strip = region(part)
                if strip.across >= minStrip * strip.along { regions.append((strip, part.count)) }
            }
        }
        let found = regions.sorted { $0.size > $1.size }.map(\.region)
        var counted: [BarRegion] = [], parts: [BarRegion] = []
        for var region in found where region.across >= minAcross || parts.count < maxParts {
            region.bars = bars(across: region, in: image)
            if region.bars >= leastBars {
                if region.across >= minAcross { counted.append(region) }
            } else {
                parts.append(region)
            }
            if counted.count >= most { break }
        }
        if counted.count < most {
            counted += joined(parts).compactMap { part in
                guard part.across >= minAcross else { return nil }
                var region = part
                region.bars = bars(across: region, in: image)
                return region.bars >= leastBars ? region : nil
            }
        }
        return Array(counted.prefix(most))
    }

    /// The most regions of too few bars `joined(_:)` looks at.
    static let maxParts = 12

    /// Regions of too few bars each that lie in line across their bars, next to each other,
    /// joined into one: the parts of a short code whose widest bars and spaces, flat inside,
    /// leave gaps of blocks without gradients between them (a clean Interleaved 2 of 5 of
    /// four digits is three regions of two or three bars). Parts at a slant to each other,
    /// beside each other along their bars, or further apart than the wider of them reaches
    /// stay apart; only regions that were joined are returned.
    static func joined(_ parts: [BarRegion]) -> [BarRegion] {
        guard parts.count >= 2 else { return [] }
        var groups: [[BarRegion]] = parts.map { [$0] }
        var merged = true
        while merged {
            merged = false
            search: for i in groups.indices {
                let a = span(groups[i])
                for j in groups.indices where j > i {
                    let b = span(groups[j])
                    guard angleDifference(a.angle, b.angle) < .pi / 12 else { continue }
                    let (c, s) = (cos(a.angle), sin(a.angle))
                    let dx = b.x - a.x, dy = b.y - a.y
                    let alongOffset = abs(-dx * s + dy * c), acrossOffset = abs(dx * c + dy * s)
                    guard alongOffset < 0.5 * min(a.along, b.along),
                          acrossOffset - a.across - b.across < max(a.across, b.across) else { continue }
                    groups[i] += groups[j]
                    groups.remove(at: j)
                    merged = true
                    break search
                }
            }
        }
        return groups.filter { $0.count >= 2 }.map(span)
    }

    /// The region spanning `parts` across the first one's bars: from the near end of the
    /// first across to the far end of the last, as wide along the bars as the widest.
    private static func span(_ parts: [BarRegion]) -> BarRegion {
        let first = parts[0]
        guard parts.count > 1 else { return first }
        let (c, s) = (cos(first.angle), sin(first.angle))
        var lo = Double.infinity, hi = -Double.infinity, middle = 0.0
        for part in parts {
            let t = (part.x - first.x) * c + (part.y - first.y) * s
            lo = min(lo, t - part.across); hi = max(hi, t + part.across)
            middle += (-(part.x - first.x) * s + (part.y - first.y) * c) / Double(parts.count)
        }
        let t = (lo + hi) / 2
        return BarRegion(x: first.x + c * t - s * middle, y: first.y + s * t + c * middle, angle: first.angle,
                         across: (hi - lo) / 2, along: parts.map(\.along).max()!)
    }

    /// How many dark bars the lines across `region` cross: the median of five, through its
    /// centre and a quarter and half of the way to either end of its bars, as all five
    /// cross a symbol's bars. A bar is a fall of the grey level by `barSwing` of the line's
    /// range (at least `minBarContrast`) followed by a rise as large: light falling off
    /// across the line (a lamp to one side, a page's curl) leaves the swings of bars, while
    /// one edge, as a page's against a desk, makes none, and a region along it crosses the
    /// codes beside it on a line or two at most. Nearest pixels of `image`.
    static func bars(across region: BarRegion, in image: GrayImage, swing share: Double = barSwing) -> Int {
        let (c, s) = (cos(region.angle), sin(region.angle))
        let steps = Int(2 * region.across)
        guard steps > 2 else { return 0 }
        let counts = image.pixels.withUnsafeBufferPointer { p -> [Int] in
            [-0.5, -0.25, 0, 0.25, 0.5].map { offset -> Int in
                let ox = region.x - s * offset * region.along - c * region.across
                let oy = region.y + c * offset * region.along - s * region.across
                var line: [Int] = []
                line.reserveCapacity(steps + 1)
                for t in 0...steps {
                    let x = Int(ox + c * Double(t)), y = Int(oy + s * Double(t))
                    guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
                    line.append(Int(p[y * image.width + x]))
                }
                guard let lo = line.min(), let hi = line.max() else { return 0 }
                let swing = max(minBarContrast, Int(share * Double(hi - lo)))
                var falling = false, extreme = line[0], count = 0
                for v in line {
                    if falling {
                        if v < extreme { extreme = v } else if v >= extreme + swing { falling = false; extreme = v; count += 1 }
                    } else {
                        if v > extreme { extreme = v } else if v <= extreme - swing { falling = true; extreme = v }
                    }
                }
                return count
            }
        }
        return counts.sorted()[counts.count / 2]
    }

    /// The share of a line's range of grey levels a bar's fall and rise must span.
    static let barSwing = 0.12

    /// The least fall and rise of grey levels that makes a bar.
    static let minBarContrast = 12

    /// The difference of two directions of lines (angles modulo π).
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: .pi)
        return min(d, .pi - d)
    }
}
