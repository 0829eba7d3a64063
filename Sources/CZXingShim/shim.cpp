// The C side of zxing_shim.h: calls ZXing::ReadBarcodes and copies what it returns into
// plain C memory. Nothing here may throw past the extern "C" boundary.
#define ZX_USE_UTF8 1

#include "zxing_shim.h"

#include <ZXing/ReadBarcode.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace {

ZXing::DecodeHints hintsFrom(const zxs_options &o)
{
    ZXing::DecodeHints hints;
    hints.setFormats(static_cast<ZXing::BarcodeFormat>(o.formats & ZXS_KNOWN_FORMATS));
    hints.setTryHarder(o.try_harder != 0);
    hints.setTryRotate(o.try_rotate != 0);
    hints.setTryDownscale(o.try_downscale != 0);
    switch (o.binarizer) {
    case ZXS_BINARIZER_GLOBAL_HISTOGRAM: hints.setBinarizer(ZXing::Binarizer::GlobalHistogram); break;
    case ZXS_BINARIZER_FIXED_THRESHOLD: hints.setBinarizer(ZXing::Binarizer::FixedThreshold); break;
    default: hints.setBinarizer(ZXing::Binarizer::LocalAverage); break;
    }
    int most = o.max_symbols < 1 ? 1 : (o.max_symbols > 255 ? 255 : o.max_symbols);
    hints.setMaxNumberOfSymbols(static_cast<uint8_t>(most));
    // Results with checksum or format errors are never wanted: a wrong payload is worse than none.
    hints.setReturnErrors(false);
    return hints;
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
        ZXing::Results found = ZXing::ReadBarcodes(view, hintsFrom(*options));
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
