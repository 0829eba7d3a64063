// The C side of zxing_shim.h: calls ZXing::ReadBarcodes in the ways that cannot reach
// libZXing 1.4's failing assertion, and copies what it returns into plain C memory.
// Nothing here may throw past the extern "C" boundary.
#define ZX_USE_UTF8 1

#include "zxing_shim.h"

#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace {

ZXing::DecodeHints hintsFrom(const zxs_options &o, uint32_t formats, int maxSymbols)
{
    ZXing::DecodeHints hints;
    hints.setFormats(static_cast<ZXing::BarcodeFormat>(formats));
    hints.setTryHarder(o.try_harder != 0);
    hints.setTryRotate(o.try_rotate != 0);
    hints.setTryDownscale(o.try_downscale != 0);
    switch (o.binarizer) {
    case ZXS_BINARIZER_GLOBAL_HISTOGRAM: hints.setBinarizer(ZXing::Binarizer::GlobalHistogram); break;
    case ZXS_BINARIZER_FIXED_THRESHOLD: hints.setBinarizer(ZXing::Binarizer::FixedThreshold); break;
    default: hints.setBinarizer(ZXing::Binarizer::LocalAverage); break;
    }
    hints.setMaxNumberOfSymbols(static_cast<uint8_t>(maxSymbols));
    hints.setEanAddOnSymbol(o.ean_add_ons != 0 ? ZXing::EanAddOnSymbol::Read : ZXing::EanAddOnSymbol::Ignore);
    // Results with checksum or format errors are never wanted: a wrong payload is worse than none.
    hints.setReturnErrors(false);
    // Codabar's start and stop characters (A–D) are part of what it holds, and zbar keeps them.
    hints.setReturnCodabarStartEnd(true);
    return hints;
}

// The area painted over a linear code once it is read: its scan lines, lengthened by a
// little on both ends, and widened across the bars as far as the bars go on (until a
// line across the code no longer looks like the one before it), so that neither what is
// left of its bars nor a code printed just above or below it is hidden or read again.
struct Band {
    double cx, cy, ux, uy;       // centre, and unit vector along the scan line
    double a0, a1, b0, b1;       // extent along the line (a) and across it (b)

    Band(const ZXing::Position &p, const std::vector<uint8_t> &pixels, int width, int height)
    {
        cx = cy = 0;
        for (int i = 0; i < 4; ++i) {
            cx += p[i].x / 4.0;
            cy += p[i].y / 4.0;
        }
        double dx = (p[1].x - p[0].x + p[2].x - p[3].x) / 2.0;
        double dy = (p[1].y - p[0].y + p[2].y - p[3].y) / 2.0;
        double length = std::sqrt(dx * dx + dy * dy);
        if (length < 1) {
            dx = 1, dy = 0, length = 1;
        }
        ux = dx / length, uy = dy / length;
        b0 = b1 = 0;
        for (int i = 0; i < 4; ++i) {
            double b = across(p[i].x, p[i].y);
            b0 = std::min(b0, b), b1 = std::max(b1, b);
        }
        double margin = 2 + length / 100;
        a0 = -length / 2 - margin, a1 = length / 2 + margin;
        // Two line buffers, swapped as the bars are followed and reused for both edges, so
        // that following the bars allocates nothing per line.
        std::vector<uint8_t> previous, next;
        previous.reserve(static_cast<size_t>(a1 - a0) + 2);
        next.reserve(previous.capacity());
        // line() does not read b0 or b1, so each edge's first line can be taken just
        // before that edge is grown.
        line(pixels, width, height, b0, previous);
        b0 = grow(pixels, width, height, b0, -1, previous, next, 2 * length) - margin;
        line(pixels, width, height, b1, previous);
        b1 = grow(pixels, width, height, b1, +1, previous, next, 2 * length) + margin;
    }

    // std::lround for the coordinates of a scan line, without a library call per point:
    // the nearest integer, halves rounded away from zero. The fraction v − trunc(v) of a
    // double is exact, so comparing it with ±0.5 decides exactly as lround does (also for
    // 0.49999999999999994, where floor(v + 0.5) would round up). Values too large for
    // that, and NaN, are left to std::lround itself.
    static long roundHalfAway(double v)
    {
        if (!(std::fabs(v) < 4503599627370496.0)) // 2^52
            return std::lround(v);
        long whole = static_cast<long>(v); // truncates toward zero
        double fraction = v - static_cast<double>(whole);
        return whole + (fraction >= 0.5) - (fraction <= -0.5);
    }

    // Fills `dark` with the pixels along the scan line at `b` across it, 1 where dark by
    // the middle of their range and 0 elsewhere; leaves it empty where the line leaves
    // the image. The pixel values are gathered into `dark` and then replaced in place.
    void line(const std::vector<uint8_t> &pixels, int width, int height, double b,
              std::vector<uint8_t> &dark) const
    {
        dark.clear();
        int low = 255, high = 0;
        for (double a = a0; a <= a1; a += 1) {
            long x = roundHalfAway(cx + a * ux - b * uy), y = roundHalfAway(cy + a * uy + b * ux);
            if (x < 0 || y < 0 || x >= width || y >= height) {
                dark.clear();
                return;
            }
            uint8_t v = pixels[static_cast<size_t>(y) * width + x];
            low = std::min<int>(low, v), high = std::max<int>(high, v);
            dark.push_back(v);
        }
        const int middle = (low + high) / 2;
        const bool contrast = high - low >= 32;
        for (uint8_t &v : dark)
            v = contrast && v <= middle;
    }

    // How far past `b`, going `step` pixels at a time, lines across the code still look like
    // their neighbours: three lines in a row that differ in more than a fifth of their
    // pixels, or one with no contrast, end the bars. `previous` holds the line at `b` and
    // `next` is scratch space; both are overwritten.
    double grow(const std::vector<uint8_t> &pixels, int width, int height, double b, int step,
                std::vector<uint8_t> &previous, std::vector<uint8_t> &next, double most) const
    {
        double end = b;
        int misses = 0;
        for (double at = b + step; std::abs(at - b) <= most && misses < 3 && !previous.empty(); at += step) {
            line(pixels, width, height, at, next);
            if (next.size() != previous.size() || std::find(next.begin(), next.end(), 1) == next.end())
                break;
            size_t differ = 0;
            for (size_t i = 0; i < next.size(); ++i)
                differ += next[i] != previous[i];
            if (5 * differ > next.size()) {
                ++misses;
                continue;
            }
            misses = 0;
            end = at;
            previous.swap(next);
        }
        return end;
    }

    double along(double x, double y) const { return (x - cx) * ux + (y - cy) * uy; }
    double across(double x, double y) const { return (cx - x) * uy + (y - cy) * ux; }

    bool contains(double x, double y) const
    {
        double a = along(x, y), b = across(x, y);
        return a >= a0 && a <= a1 && b >= b0 && b <= b1;
    }

    // Paints the band white in a `width` × `height` image with rows `width` bytes apart.
    void paint(std::vector<uint8_t> &pixels, int width, int height) const
    {
        double xs[4], ys[4];
        const double as[4] = {a0, a1, a1, a0}, bs[4] = {b0, b0, b1, b1};
        for (int i = 0; i < 4; ++i) {
            xs[i] = cx + as[i] * ux - bs[i] * uy;
            ys[i] = cy + as[i] * uy + bs[i] * ux;
        }
        int left = std::max(0, static_cast<int>(std::floor(*std::min_element(xs, xs + 4))));
        int right = std::min(width - 1, static_cast<int>(std::ceil(*std::max_element(xs, xs + 4))));
        int top = std::max(0, static_cast<int>(std::floor(*std::min_element(ys, ys + 4))));
        int bottom = std::min(height - 1, static_cast<int>(std::ceil(*std::max_element(ys, ys + 4))));
        for (int y = top; y <= bottom; ++y)
            for (int x = left; x <= right; ++x)
                if (contains(x, y))
                    pixels[static_cast<size_t>(y) * width + x] = 255;
    }
};

// Reads the linear codes of `formats` one ReadBarcodes call each (see zxing_shim.h), each
// painted over in a copy of the image before the next call, until a call finds nothing,
// `most` are found, or a code is found again where one was painted over (painting did not
// hide it, so looking again would only find it again).
void readLinear(const ZXing::ImageView &image, const uint8_t *pixels, int stride, const zxs_options &o,
                uint32_t formats, int minLineCount, int most, ZXing::Results &found)
{
    if (formats == 0)
        return;
    const int width = image.width(), height = image.height();
    std::vector<uint8_t> copy;
    std::vector<Band> painted;
    ZXing::ImageView view = image;
    auto hints = hintsFrom(o, formats, 1);
    hints.setMinLineCount(static_cast<uint8_t>(minLineCount));
    for (int n = 0; n < most; ++n) {
        ZXing::Results rs = ZXing::ReadBarcodes(view, hints);
        auto hit = std::find_if(rs.begin(), rs.end(), [](const ZXing::Result &r) { return r.isValid(); });
        if (hit == rs.end())
            return;
        if (copy.empty()) {
            copy.resize(static_cast<size_t>(width) * height);
            for (int y = 0; y < height; ++y)
                std::memcpy(&copy[static_cast<size_t>(y) * width], pixels + static_cast<size_t>(y) * stride, width);
            view = ZXing::ImageView(copy.data(), width, height, ZXing::ImageFormat::Lum);
        }
        Band band(hit->position(), copy, width, height);
        for (const auto &b : painted)
            if (b.contains(band.cx, band.cy))
                return;
        found.push_back(*hit);
        band.paint(copy, width, height);
        painted.push_back(band);
    }
}

// Copies one valid result; false when memory ran out.
bool copyOut(const ZXing::Result &r, zxs_result &out)
{
    std::memset(&out, 0, sizeof out);
    out.format = static_cast<uint32_t>(r.format());
    const auto &bytes = r.bytes();
    out.byte_count = bytes.size();
    if (!bytes.empty()) {
        auto *copy = static_cast<uint8_t *>(std::malloc(bytes.size()));
        if (!copy)
            return false;
        std::memcpy(copy, bytes.data(), bytes.size());
        out.bytes = copy;
    }
    std::string text = r.text();
    auto *textCopy = static_cast<char *>(std::malloc(text.size() + 1));
    if (!textCopy)
        return false;
    std::memcpy(textCopy, text.data(), text.size());
    textCopy[text.size()] = '\0';
    out.text = textCopy;
    out.text_length = text.size();
    out.has_eci = r.hasECI() ? 1 : 0;
    const auto &p = r.position();
    for (int i = 0; i < 4; ++i) {
        out.corners[2 * i] = p[i].x;
        out.corners[2 * i + 1] = p[i].y;
    }
    std::string ec = r.ecLevel();
    std::strncpy(out.ec_level, ec.c_str(), sizeof out.ec_level - 1);
    out.orientation = r.orientation();
    out.is_mirrored = r.isMirrored() ? 1 : 0;
    out.sequence_index = r.sequenceIndex();
    out.sequence_size = r.sequenceSize();
    out.sequence_parity = -1;
    // For QR codes zxing gives the parity byte as a decimal string.
    std::string id = r.sequenceId();
    if (!id.empty() && id.size() <= 3 && id.find_first_not_of("0123456789") == std::string::npos) {
        int parity = std::stoi(id);
        if (parity <= 255)
            out.sequence_parity = parity;
    }
    return true;
}

} // namespace

extern "C" zxs_results zxs_read_gray(const uint8_t *pixels, int width, int height, int stride,
                                     const zxs_options *options)
{
    zxs_results none{nullptr, 0, ZXS_ERROR_NONE};
    if (!pixels || !options || width <= 0 || height <= 0 || stride < width) {
        none.error = ZXS_ERROR_BAD_ARGUMENT;
        return none;
    }
    zxs_results out{nullptr, 0, ZXS_ERROR_NONE};
    try {
        ZXing::ImageView view(pixels, width, height, ZXing::ImageFormat::Lum, stride);
        const zxs_options &o = *options;
        int most = o.max_symbols < 1 ? 1 : (o.max_symbols > 255 ? 255 : o.max_symbols);
        ZXing::Results found;
        if (uint32_t matrix = o.formats & ZXS_MATRIX_FORMATS)
            found = ZXing::ReadBarcodes(view, hintsFrom(o, matrix, most));
        uint32_t linear = o.formats & ZXS_LINEAR_FORMATS;
        const uint32_t databar = ZXS_FORMAT_DATABAR | ZXS_FORMAT_DATABAR_EXPANDED;
        readLinear(view, pixels, stride, o, linear & ~databar, 2, most, found);
        readLinear(view, pixels, stride, o, linear & databar, 1, most, found);
        size_t valid = 0;
        for (const auto &r : found)
            valid += r.isValid() ? 1 : 0;
        if (valid == 0)
            return none;
        out.items = static_cast<zxs_result *>(std::calloc(valid, sizeof(zxs_result)));
        if (!out.items) {
            none.error = ZXS_ERROR_NO_MEMORY;
            return none;
        }
        for (const auto &r : found) {
            if (!r.isValid())
                continue;
            // Counted before copying, so that zxs_free releases a half-copied result
            // whether copyOut fails or throws.
            zxs_result &slot = out.items[out.count++];
            if (!copyOut(r, slot)) {
                zxs_free(&out);
                none.error = ZXS_ERROR_NO_MEMORY;
                return none;
            }
        }
        return out;
    } catch (const std::bad_alloc &) {
        zxs_free(&out);
        none.error = ZXS_ERROR_NO_MEMORY;
    } catch (...) {
        zxs_free(&out);
        none.error = ZXS_ERROR_EXCEPTION;
    }
    return none;
}

extern "C" void zxs_free(zxs_results *results)
{
    if (!results)
        return;
    for (size_t i = 0; i < results->count; ++i) {
        std::free(const_cast<uint8_t *>(results->items[i].bytes));
        std::free(const_cast<char *>(results->items[i].text));
    }
    std::free(results->items);
    results->items = nullptr;
    results->count = 0;
}
