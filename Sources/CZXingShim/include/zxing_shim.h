// A plain C interface to zxing-cpp 1.4 (libzxing-dev), which is C++ only.
//
// Only this header is visible to Swift. Every call catches every C++ exception, so none
// crosses into Swift; a failure reads as "nothing found" with an error code.
#ifndef ZXING_SHIM_H
#define ZXING_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Barcode formats, the same bit values as ZXing::BarcodeFormat.
enum {
    ZXS_FORMAT_AZTEC = 1 << 0,
    ZXS_FORMAT_CODABAR = 1 << 1,
    ZXS_FORMAT_CODE39 = 1 << 2,
    ZXS_FORMAT_CODE93 = 1 << 3,
    ZXS_FORMAT_CODE128 = 1 << 4,
    ZXS_FORMAT_DATABAR = 1 << 5,
    ZXS_FORMAT_DATABAR_EXPANDED = 1 << 6,
    ZXS_FORMAT_DATA_MATRIX = 1 << 7,
    ZXS_FORMAT_EAN8 = 1 << 8,
    ZXS_FORMAT_EAN13 = 1 << 9,
    ZXS_FORMAT_ITF = 1 << 10,
    ZXS_FORMAT_PDF417 = 1 << 12,
    ZXS_FORMAT_QRCODE = 1 << 13,
    ZXS_FORMAT_UPCA = 1 << 14,
    ZXS_FORMAT_UPCE = 1 << 15,
    ZXS_FORMAT_MICRO_QRCODE = 1 << 16,
    ZXS_LINEAR_FORMATS = ZXS_FORMAT_CODABAR | ZXS_FORMAT_CODE39 | ZXS_FORMAT_CODE93 | ZXS_FORMAT_CODE128
        | ZXS_FORMAT_DATABAR | ZXS_FORMAT_DATABAR_EXPANDED | ZXS_FORMAT_EAN8 | ZXS_FORMAT_EAN13
        | ZXS_FORMAT_ITF | ZXS_FORMAT_UPCA | ZXS_FORMAT_UPCE,
    ZXS_MATRIX_FORMATS = ZXS_FORMAT_AZTEC | ZXS_FORMAT_DATA_MATRIX | ZXS_FORMAT_PDF417 | ZXS_FORMAT_QRCODE
        | ZXS_FORMAT_MICRO_QRCODE,
    ZXS_KNOWN_FORMATS = ZXS_LINEAR_FORMATS | ZXS_MATRIX_FORMATS,
};

// How zxing turns gray into black and white (ZXing::Binarizer).
enum {
    ZXS_BINARIZER_LOCAL_AVERAGE = 0,
    ZXS_BINARIZER_GLOBAL_HISTOGRAM = 1,
    ZXS_BINARIZER_FIXED_THRESHOLD = 2,
};

// What to look for and how hard (a subset of ZXing::DecodeHints).
typedef struct zxs_options {
    uint32_t formats;       // ZXS_FORMAT_* bits; 0 finds nothing
    int try_harder;         // DecodeHints::tryHarder
    int try_rotate;         // DecodeHints::tryRotate
    int try_downscale;      // DecodeHints::tryDownscale
    int binarizer;          // ZXS_BINARIZER_*
    int max_symbols;        // 1...255: at most this many matrix codes, and this many linear ones
} zxs_options;

// One symbol read, with its payload copied into memory the result list owns.
typedef struct zxs_result {
    uint32_t format;        // one ZXS_FORMAT_* bit
    const uint8_t *bytes;   // Result::bytes(): the payload without character-set conversion
    size_t byte_count;
    const char *text;       // Result::text() as UTF-8: zxing-cpp's reading of the bytes, by the
                            // character set the symbol declares (ECI, Hanzi mode) or, failing
                            // that, by its guess; may hold NUL characters
    size_t text_length;     // in bytes
    int has_eci;            // Result::hasECI()
    int corners[8];         // Result::position(): x, y of top-left, top-right, bottom-right, bottom-left
    char ec_level[4];       // Result::ecLevel(), e.g. "M"; empty when unknown
    int orientation;        // Result::orientation(), degrees
    int is_mirrored;        // Result::isMirrored()
    int sequence_index;     // Result::sequenceIndex(): 0-based place in a Structured Append
                            // sequence, -1 outside one
    int sequence_size;      // Result::sequenceSize(): symbols in the sequence, -1 outside one,
                            // 0 when unknown
    int sequence_parity;    // Result::sequenceId() of a QR code: the sequence's parity byte,
                            // -1 when there is none
} zxs_result;

// Every symbol zxing found; free with zxs_free.
typedef struct zxs_results {
    zxs_result *items;
    size_t count;
    int error;              // 0, or ZXS_ERROR_*: why nothing could be returned
} zxs_results;

enum {
    ZXS_ERROR_NONE = 0,
    ZXS_ERROR_BAD_ARGUMENT = 1,  // NULL pixels, a size out of range
    ZXS_ERROR_EXCEPTION = 2,     // zxing threw (caught here)
    ZXS_ERROR_NO_MEMORY = 3,     // copying results out failed
};

// Reads every valid symbol in an 8-bit gray image (`width` × `height`, rows `stride`
// bytes apart) with ZXing::ReadBarcodes. Results failing their checksum are never
// returned. The pixels are only read during the call.
//
// libZXing 1.4 (Debian's build keeps its assertions) aborts the process in
// Result::operator== when it compares two linear results with the same format and bytes
// and the first was seen on more than one line: a linear code found again in a
// downscaled layer or in the rotated pass, two identical linear codes in one image,
// and a DataBar or DataBar Expanded whose pieces were paired across scan lines (their
// readers count lines themselves). So linear codes are never read more than one per
// ReadBarcodes call: each call asks for one symbol (the two DataBars apart from the rest,
// with a minimum line count of 1, so that their first pairing ends the search), and the
// code found is painted over before the next call looks again.
// Matrix codes are read all in one call, where no such comparison is made.
//
// The zxing calls are not run in a forked child to survive an abort nobody has seen yet:
// fork() with a pipe back costs 1.2 ms at qrseal's usual 20 MB, 4.5 ms at 100 MB and 11 ms at
// 400 MB resident (a large photo), against about 1 ms for a whole quick search, so it would
// make the live and fast paths several times slower. Every call made here avoids the one
// assertion the shared corpus and the generated images reach, by construction.
zxs_results zxs_read_gray(const uint8_t *pixels, int width, int height, int stride,
                          const zxs_options *options);

// Frees what zxs_read_gray returned; safe on an empty or already freed list.
void zxs_free(zxs_results *results);

#ifdef __cplusplus
}
#endif

#endif
