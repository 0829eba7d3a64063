import Foundation

/// Where an image may hold the bars of a linear code: blocks whose gradients are strong and
/// all point one way (the structure tensor's coherence), joined with their neighbours of
/// the same direction. Cheap, so an image without bars costs little more than one look at
/// its pixels.
struct BarRegion: Sendable {
    /// The centre, in image pixels.
    var x: Double, y: Double
    /// The direction across the bars, radians.
    var angle: Double
    /// Half the region's extent across the bars and along them, pixels.
    var across: Double, along: Double
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
    /// The regions kept, largest first.
    static let maxRegions = 3
    /// Above this many pixels, blocks are taken on a copy shrunk to it.
    static let maxPixels = 1_500_000

    /// The regions of `image`, largest first, at most `most`. An image too thin for blocks
    /// is one region along its longer side.
    static func find(in image: GrayImage, most: Int = maxRegions) -> [BarRegion] {
        let w = image.width, h = image.height
        if min(w, h) < 2 * block {
            let horizontal = w >= h
            return [BarRegion(x: Double(w) / 2, y: Double(h) / 2, angle: horizontal ? 0 : .pi / 2,
                              across: Double(horizontal ? w : h) / 2, along: Double(horizontal ? h : w) / 2)]
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
        // Joins blocks up to two apart (bridging a block that noise or a wide space left
        // incoherent) whose directions differ by less than 15°.
        var label = [Int](repeating: -1, count: bw * bh)
        var regions: [(blocks: [Int], size: Int)] = []
        for seed in angle.indices where !angle[seed].isNaN && label[seed] < 0 {
            var stack = [seed], members: [Int] = []
            label[seed] = regions.count
            while let i = stack.popLast() {
                members.append(i)
                let bx = i % bw, by = i / bw
                for dy in -2...2 {
                    for dx in -2...2 {
                        let nx = bx + dx, ny = by + dy
                        guard nx >= 0, ny >= 0, nx < bw, ny < bh else { continue }
                        let j = ny * bw + nx
                        guard label[j] < 0, !angle[j].isNaN, angleDifference(angle[i], angle[j]) < .pi / 12 else { continue }
                        label[j] = regions.count
                        stack.append(j)
                    }
                }
            }
            regions.append((members, members.count))
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
        let found = regions.filter { $0.size >= minBlocks && isBars($0.blocks) }.sorted { $0.size > $1.size }.map { r in
            var xx = 0.0, yy = 0.0, xy = 0.0, cx = 0.0, cy = 0.0
            for i in r.blocks {
                xx += jxx[i]; yy += jyy[i]; xy += jxy[i]
                cx += Double(i % bw) + 0.5; cy += Double(i / bw) + 0.5
            }
            let theta = 0.5 * atan2(2 * xy, xx - yy)
            cx /= Double(r.size); cy /= Double(r.size)
            let (c, s) = (cos(theta), sin(theta))
            var across = 0.5, along = 0.5
            for i in r.blocks {
                let dx = Double(i % bw) + 0.5 - cx, dy = Double(i / bw) + 0.5 - cy
                across = max(across, abs(dx * c + dy * s) + 0.5)
                along = max(along, abs(-dx * s + dy * c) + 0.5)
            }
            let f = Double(block) * scale
            return BarRegion(x: cx * f, y: cy * f, angle: theta, across: across * f, along: along * f)
        }
        return Array(found.filter { $0.across >= minAcross }.prefix(most))
    }

    /// The difference of two directions of lines (angles modulo π).
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: .pi)
        return min(d, .pi - d)
    }
}
