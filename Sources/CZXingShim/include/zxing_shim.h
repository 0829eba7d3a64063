// A plain C interface to zxing-cpp 1.4 (libzxing-dev), which is C++ only.
//
// Only the qrseal-engine helper includes it. Every call catches every C++ exception, so
// none crosses into C; a failure reads as "nothing found" with an error code.
#ifndef ZXING_SHIM_H
#define ZXING_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "qrseal_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

// The formats, options and results are qrseal_engine.h's (CEngine): this shim runs inside
// the qrseal-engine helper, never in qrseal's own process.

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
// Other assertions remain (the Micro QR sampler's, RegressionLine.h:144, on a 494-byte PNG
// a fuzzer found; more nobody has seen yet), and a memory error would be as fatal, so the
// shim runs only in the qrseal-engine helper process (qrseal_engine.h), whose death ends one
// request and not qrseal. Avoiding the linear-code assertion by construction still matters
// there: it keeps the helper alive, and the codes read, on ordinary images.
zxs_results zxs_read_gray(const uint8_t *pixels, int width, int height, int stride,
                          const zxs_options *options);

// Frees what zxs_read_gray returned; safe on an empty or already freed list.
void zxs_free(zxs_results *results);

#ifdef __cplusplus
}
#endif

#endif
