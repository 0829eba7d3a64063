import FoundationEssentials
import Glibc

/// Laying a grid on the modules as the picture shows them, where the reference points
/// (finders and alignment patterns, up to 28 modules apart) leave it between them: a page's
/// waves and a lens's distortion bend the rows of a dense code by half a module within a
/// cell, and every module sampled there falls on an edge.
extension ModuleGrid {
    /// A finer grid laid over this one, a node every `spacing` modules or so, each moved to
    /// where the edges between the modules around it (`reach` modules each way) lie.
    ///
    /// Across the rows, the grey level changes most at the edges between modules, which lie
    /// at whole module coordinates when the grid fits; each edge pulls the node's phase,
    /// weighted by its strength: the phase of the rate of change's component at one cycle a
    /// module, sampled four times a module (the cycle's sine and cosine summed). It measures
    /// an offset of up to half a module either way, whatever the modules hold, as every
    /// code changes colour between many of its modules. A node whose edges do not agree (the
    /// strength of that component under `leastAgreement` of their total: a blank stretch, or
    /// rows bent within the window) takes the mean offset of its neighbours that agree, or
    /// none.
    func phaseFitted(in image: GrayImage, spacing: Double = 6, reach: Double = 5,
                     leastAgreement: Double = 0.1) -> ModuleGrid? {
        let d = Double(dimension)
        let count = max(2, Int(((d - 7) / spacing).rounded()) + 1)
        let lines = (0..<count).map { 3.5 + (d - 7) * Double($0) / Double(count - 1) }
        let perModule = 4, step = 1 / Double(perModule)
        var offsets: [(x: Double?, y: Double?)] = []
        for v in lines {
            for u in lines {
                let x0 = max(0, u - reach), x1 = min(d, u + reach), y0 = max(0, v - reach), y1 = min(d, v + reach)
                let columns = Int((x1 - x0) / step) + 1, rows = Int((y1 - y0) / step) + 1
                var grey = [Double](repeating: 0, count: columns * rows)
                for r in 0..<rows {
                    for c in 0..<columns {
                        let p = point(x0 + Double(c) * step, y0 + Double(r) * step)
                        grey[r * columns + c] = image.bilinear(p.x, p.y, centres: .halfway, outside: .edge)
                    }
                }
                var across = (cos: 0.0, sin: 0.0, total: 0.0), down = (cos: 0.0, sin: 0.0, total: 0.0)
                // The cycle's sine and cosine at each sample column and row, taken once.
                let angleX = (0..<columns).map { 2 * Double.pi * (x0 + Double($0) * step) }
                let cosX = angleX.map(cos), sinX = angleX.map(sin)
                for r in 1..<max(1, rows - 1) {
                    let angleY = 2 * Double.pi * (y0 + Double(r) * step)
                    let (cosY, sinY) = (cos(angleY), sin(angleY))
                    for c in 1..<max(1, columns - 1) {
                        let gx = abs(grey[r * columns + c + 1] - grey[r * columns + c - 1])
                        let gy = abs(grey[(r + 1) * columns + c] - grey[(r - 1) * columns + c])
                        across.cos += gx * cosX[c]; across.sin += gx * sinX[c]; across.total += gx
                        down.cos += gy * cosY; down.sin += gy * sinY; down.total += gy
                    }
                }
                func offset(_ s: (cos: Double, sin: Double, total: Double)) -> Double? {
                    guard s.total > 0, (s.cos * s.cos + s.sin * s.sin).squareRoot() >= leastAgreement * s.total else { return nil }
                    return atan2(s.sin, s.cos) / (2 * Double.pi)
                }
                offsets.append((offset(across), offset(down)))
            }
        }
        var points: [Point] = []
        for j in 0..<count {
            for i in 0..<count {
                func settled(_ pick: ((x: Double?, y: Double?)) -> Double?) -> Double {
                    if let own = pick(offsets[j * count + i]) { return own }
                    var sum = 0.0, n = 0.0
                    for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let a = i + di, b = j + dj
                        guard a >= 0, b >= 0, a < count, b < count, let o = pick(offsets[b * count + a]) else { continue }
                        sum += o; n += 1
                    }
                    return n > 0 ? sum / n : 0
                }
                points.append(point(lines[i] + settled(\.x), lines[j] + settled(\.y)))
            }
        }
        return ModuleGrid(dimension: dimension, lines: lines, points: points)
    }
}
