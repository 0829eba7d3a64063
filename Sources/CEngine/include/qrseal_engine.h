/* The engine: the C and C++ libraries that read outside input in ways qrseal cannot make
 * safe from inside, run in a process of their own.
 *
 * libZXing 1.4 (Debian's build keeps its assertions) aborts the process on inputs that
 * reach one of its assert()s, and a memory error in any decoder would end the process
 * too; Tesseract asserts on damaged data files and may hang or grow without bound while
 * it starts. So qrseal never calls them on outside input in its own process: a helper
 * executable, qrseal-engine, does, one request at a time, under a memory limit, and the
 * caller waits for each answer with a deadline. A helper that dies (a signal) or misses
 * its deadline (killed) ends only that request, which reports how; the next request
 * starts a new helper. What may fail this way is whatever the libraries do, including
 * assertions nobody has found yet.
 *
 * The wire between them is a Unix socket pair (the helper's fd 3) and, for pixels, a
 * shared memory file (memfd, the helper's fd 4) the caller grows as images need: a request
 * is one qe_request, then for a Tesseract start its two strings; an answer is one
 * qe_reply, then its payload. Both sides are built from this header and run together, so
 * the layout is not versioned; the caller still checks every size it reads. */
#ifndef QRSEAL_ENGINE_H
#define QRSEAL_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- What a zxing-cpp read asks for and gives (the shim's types, CZXingShim). ---- */

/* Barcode formats, the same bit values as ZXing::BarcodeFormat. */
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
    ZXS_FORMAT_MAXICODE = 1 << 11,
    ZXS_FORMAT_PDF417 = 1 << 12,
    ZXS_FORMAT_QRCODE = 1 << 13,
    ZXS_FORMAT_UPCA = 1 << 14,
    ZXS_FORMAT_UPCE = 1 << 15,
    ZXS_FORMAT_MICRO_QRCODE = 1 << 16,
    ZXS_LINEAR_FORMATS = ZXS_FORMAT_CODABAR | ZXS_FORMAT_CODE39 | ZXS_FORMAT_CODE93 | ZXS_FORMAT_CODE128
        | ZXS_FORMAT_DATABAR | ZXS_FORMAT_DATABAR_EXPANDED | ZXS_FORMAT_EAN8 | ZXS_FORMAT_EAN13
        | ZXS_FORMAT_ITF | ZXS_FORMAT_UPCA | ZXS_FORMAT_UPCE,
    ZXS_MATRIX_FORMATS = ZXS_FORMAT_AZTEC | ZXS_FORMAT_DATA_MATRIX | ZXS_FORMAT_PDF417 | ZXS_FORMAT_QRCODE
        | ZXS_FORMAT_MICRO_QRCODE | ZXS_FORMAT_MAXICODE,
    ZXS_KNOWN_FORMATS = ZXS_LINEAR_FORMATS | ZXS_MATRIX_FORMATS,
};

/* How zxing turns gray into black and white (ZXing::Binarizer). */
enum {
    ZXS_BINARIZER_LOCAL_AVERAGE = 0,
    ZXS_BINARIZER_GLOBAL_HISTOGRAM = 1,
    ZXS_BINARIZER_FIXED_THRESHOLD = 2,
};

/* What to look for and how hard (a subset of ZXing::DecodeHints). */
typedef struct zxs_options {
    uint32_t formats;       /* ZXS_FORMAT_* bits; 0 finds nothing */
    int try_harder;         /* DecodeHints::tryHarder */
    int try_rotate;         /* DecodeHints::tryRotate */
    int try_downscale;      /* DecodeHints::tryDownscale */
    int binarizer;          /* ZXS_BINARIZER_* */
    int max_symbols;        /* 1...255: at most this many matrix codes, and this many linear ones */
    int ean_add_ons;        /* 1: read an EAN-2/EAN-5 add-on beside an EAN/UPC code
                             * (DecodeHints::eanAddOnSymbol Read), 0: ignore it */
} zxs_options;

/* One symbol read, with its payload copied into memory the result list owns. */
typedef struct zxs_result {
    uint32_t format;        /* one ZXS_FORMAT_* bit */
    const uint8_t *bytes;   /* Result::bytes(): the payload without character-set conversion */
    size_t byte_count;
    const char *text;       /* Result::text() as UTF-8: zxing-cpp's reading of the bytes, by the
                             * character set the symbol declares (ECI, Hanzi mode) or, failing
                             * that, by its guess; may hold NUL characters; NULL when none */
    size_t text_length;     /* in bytes */
    int has_eci;            /* Result::hasECI() */
    int corners[8];         /* Result::position(): x, y of top-left, top-right, bottom-right, bottom-left */
    char ec_level[4];       /* Result::ecLevel(), e.g. "M"; empty when unknown */
    int orientation;        /* Result::orientation(), degrees */
    int is_mirrored;        /* Result::isMirrored() */
    int sequence_index;     /* Result::sequenceIndex(): 0-based place in a Structured Append
                             * sequence, -1 outside one */
    int sequence_size;      /* Result::sequenceSize(): symbols in the sequence, -1 outside one,
                             * 0 when unknown */
    int sequence_parity;    /* Result::sequenceId() of a QR code: the sequence's parity byte,
                             * -1 when there is none */
} zxs_result;

/* Every symbol zxing found; free with zxs_free (in the helper) or qe_free_results (here). */
typedef struct zxs_results {
    zxs_result *items;
    size_t count;
    int error;              /* 0, or ZXS_ERROR_*: why nothing could be returned */
} zxs_results;

enum {
    ZXS_ERROR_NONE = 0,
    ZXS_ERROR_BAD_ARGUMENT = 1,  /* NULL pixels, a size out of range */
    ZXS_ERROR_EXCEPTION = 2,     /* zxing threw (caught) */
    ZXS_ERROR_NO_MEMORY = 3,     /* zxing or the copy of its results ran out of memory */
};

/* ---- The wire. ---- */

enum {
    QE_MAGIC = 0x51524531,          /* "QRE1" */
    QE_REQUEST_READ_ZXING = 1,      /* pixels in the shared memory; answer: results */
    QE_REQUEST_START_TESSERACT = 2, /* two strings follow, a sample page in the shared memory;
                                     * answer: status 0 or -1 */
    QE_REQUEST_DESCRIBE = 3,        /* answer: the path of the libZXing the helper loaded */
    QE_MAX_STRING = 4096,           /* a data path or a language list, NUL included */
    QE_MAX_PAYLOAD = 64 << 20,      /* an answer's payload, at most */
};

typedef struct qe_request {
    uint32_t magic;
    uint32_t kind;              /* QE_REQUEST_* */
    uint32_t width, height;     /* the pixels, one byte each, rows packed */
    uint64_t shared_size;       /* the shared memory's size now */
    uint64_t memory_limit;      /* bytes of address space the helper may use for this request */
    zxs_options options;        /* READ_ZXING */
    uint32_t string_lengths[2]; /* START_TESSERACT: data path, languages, NULs included */
} qe_request;

typedef struct qe_reply {
    uint32_t magic;
    int32_t status;             /* READ_ZXING: ZXS_ERROR_*; START_TESSERACT: 0 started, -1 refused */
    uint32_t count;             /* READ_ZXING: results in the payload */
    uint32_t payload_size;      /* bytes after this header */
} qe_reply;

/* One result in an answer's payload, followed by its bytes, then its text. */
typedef struct qe_wire_result {
    uint32_t format;
    uint32_t byte_count;
    uint32_t text_length;
    int32_t has_text;
    int32_t has_eci;
    int32_t corners[8];
    char ec_level[4];
    int32_t orientation;
    int32_t is_mirrored;
    int32_t sequence_index;
    int32_t sequence_size;
    int32_t sequence_parity;
} qe_wire_result;

/* ---- The caller's side. ---- */

/* How a request ended. */
typedef enum qe_outcome {
    QE_DONE = 0,         /* answered (a zxing read may still carry an error of its own) */
    QE_UNAVAILABLE = 1,  /* the helper could not be started (qe_engine_error says why) */
    QE_CRASHED = 2,      /* the helper died: killed by qe_engine_signal(), or exited */
    QE_TIMED_OUT = 3,    /* no answer by the deadline: the helper was killed */
    QE_BROKEN = 4,       /* the wire failed: an answer out of shape, a write refused, no memory */
} qe_outcome;

typedef struct qe_engine qe_engine;

/* Starts a helper from `path` (posix_spawn; a socket pair and a memfd as its fds 3 and 4,
 * nothing else inherited, its standard streams /dev/null). NULL only when memory ran out;
 * otherwise an engine that, if the start failed, answers every request QE_UNAVAILABLE. */
qe_engine *qe_start(const char *path);

/* Ends the helper (closing its socket; killed if it has not gone within 200 ms) and frees
 * `engine`. NULL is ignored. */
void qe_stop(qe_engine *engine);

/* Whether the helper can take another request: false after any outcome but QE_DONE. */
int qe_is_usable(const qe_engine *engine);

/* The signal that ended the helper after QE_CRASHED (0 when it exited), and why it could
 * not be started after QE_UNAVAILABLE (a static or engine-owned string, NULL otherwise). */
int qe_engine_signal(const qe_engine *engine);
const char *qe_engine_error(const qe_engine *engine);

/* ZXing::ReadBarcodes in the helper (the shim's zxs_read_gray) on an 8-bit gray image,
 * rows `stride` bytes apart, waiting at most `timeout_ms`. On QE_DONE, `*out` holds what
 * the helper answered (its error field included); free it with qe_free_results. On any
 * other outcome `*out` is empty. */
qe_outcome qe_read_zxing(qe_engine *engine, const uint8_t *pixels, int width, int height, int stride,
                         const zxs_options *options, uint64_t memory_limit, int timeout_ms,
                         zxs_results *out);

/* Starts Tesseract in the helper as CLoader's qrseal_tesseract_start does (LSTM only) with
 * `language` from `datapath`, recognises the 8-bit gray `sample` (`width` × `height`, rows
 * packed) with it, then ends it; `*status` is 0 when it started, -1 when Tesseract refused
 * the data. A helper that dies (a failed assertion) or runs out of time tells that the data
 * would harm the process that used it: damage in the character set or the dictionaries
 * shows only once words are read. */
qe_outcome qe_start_tesseract(qe_engine *engine, const char *datapath, const char *language,
                              const uint8_t *sample, int width, int height,
                              uint64_t memory_limit, int timeout_ms, int *status);

/* Copies into `path` (`size` bytes, NUL-terminated) the file of the libZXing the helper has
 * loaded, as its /proc/self/maps names it; empty when none. */
qe_outcome qe_describe(qe_engine *engine, char *path, size_t size, int timeout_ms);

/* Frees what qe_read_zxing returned; safe on an empty or already freed list. */
void qe_free_results(zxs_results *results);

#ifdef __cplusplus
}
#endif

#endif
