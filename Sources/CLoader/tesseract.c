/* Tesseract (libtesseract.so.5), opened when text is first recognised: with leptonica,
 * libarchive, curl, libgomp, webp, tiff, openjp2 … it is most of what the process would
 * load. The functions TextRecognizer+tesseract.swift calls, and a few more of the same API
 * (a function called from Swift must be listed here, or the link fails on its name). */
#include <stdatomic.h>
#include <tesseract/capi.h>
#include "lazy.h"
#include "tesseract_start.h"

#define TESSERACT_FUNCTIONS(F, V)                                                             \
    F(const char *, TessVersion, (void), (), NULL)                                            \
    F(TessBaseAPI *, TessBaseAPICreate, (void), (), NULL)                                     \
    V(TessBaseAPIDelete, (TessBaseAPI *handle), (handle))                                     \
    V(TessBaseAPIEnd, (TessBaseAPI *handle), (handle))                                        \
    V(TessBaseAPIClear, (TessBaseAPI *handle), (handle))                                      \
    F(int, TessBaseAPIInit2, (TessBaseAPI *handle, const char *datapath, const char *language, \
                              TessOcrEngineMode oem), (handle, datapath, language, oem), -1)  \
    F(int, TessBaseAPIInit3, (TessBaseAPI *handle, const char *datapath, const char *language), \
      (handle, datapath, language), -1)                                                       \
    F(BOOL, TessBaseAPISetVariable, (TessBaseAPI *handle, const char *name, const char *value), \
      (handle, name, value), FALSE)                                                           \
    V(TessBaseAPISetPageSegMode, (TessBaseAPI *handle, TessPageSegMode mode), (handle, mode)) \
    V(TessBaseAPISetImage, (TessBaseAPI *handle, const unsigned char *imagedata, int width,   \
                            int height, int bytes_per_pixel, int bytes_per_line),             \
      (handle, imagedata, width, height, bytes_per_pixel, bytes_per_line))                    \
    V(TessBaseAPISetSourceResolution, (TessBaseAPI *handle, int ppi), (handle, ppi))          \
    V(TessBaseAPISetRectangle, (TessBaseAPI *handle, int left, int top, int width, int height), \
      (handle, left, top, width, height))                                                     \
    F(int, TessBaseAPIRecognize, (TessBaseAPI *handle, ETEXT_DESC *monitor), (handle, monitor), -1) \
    F(char *, TessBaseAPIGetUTF8Text, (TessBaseAPI *handle), (handle), NULL)                  \
    F(int, TessBaseAPIMeanTextConf, (TessBaseAPI *handle), (handle), 0)                       \
    F(TessResultIterator *, TessBaseAPIGetIterator, (TessBaseAPI *handle), (handle), NULL)    \
    V(TessDeleteText, (const char *text), (text))                                             \
    V(TessResultIteratorDelete, (TessResultIterator *handle), (handle))                       \
    F(BOOL, TessResultIteratorNext, (TessResultIterator *handle, TessPageIteratorLevel level), \
      (handle, level), FALSE)                                                                 \
    F(char *, TessResultIteratorGetUTF8Text, (const TessResultIterator *handle,               \
                                              TessPageIteratorLevel level), (handle, level), NULL) \
    F(float, TessResultIteratorConfidence, (const TessResultIterator *handle,                 \
                                            TessPageIteratorLevel level), (handle, level), 0) \
    F(const char *, TessResultIteratorWordRecognitionLanguage, (const TessResultIterator *handle), \
      (handle), NULL)                                                                         \
    F(TessPageIterator *, TessResultIteratorGetPageIterator, (TessResultIterator *handle),    \
      (handle), NULL)                                                                         \
    F(const TessPageIterator *, TessResultIteratorGetPageIteratorConst,                       \
      (const TessResultIterator *handle), (handle), NULL)                                     \
    F(BOOL, TessPageIteratorIsAtBeginningOf, (const TessPageIterator *handle,                 \
                                              TessPageIteratorLevel level), (handle, level), FALSE) \
    F(BOOL, TessPageIteratorBoundingBox, (const TessPageIterator *handle, TessPageIteratorLevel level, \
                                          int *left, int *top, int *right, int *bottom),      \
      (handle, level, left, top, right, bottom), FALSE)                                   \
    F(ETEXT_DESC *, TessMonitorCreate, (void), (), NULL)                                      \
    V(TessMonitorDelete, (ETEXT_DESC *monitor), (monitor))                                    \
    V(TessMonitorSetDeadlineMSecs, (ETEXT_DESC *monitor, int deadline), (monitor, deadline))

QRSEAL_LAZY_LIBRARY(qrseal_lazy_tesseract, "libtesseract.so.5", TESSERACT_FUNCTIONS)

/* Tesseract's start, without the one part of it that LSTM recognition never reads.
 *
 * Every start (TessBaseAPIInit*, whatever the engine mode, in Tesseract::
 * init_tesseract_lang_data) calls UnicharAmbigs::LoadUniversal, which parses a table of
 * confusable letters compiled into the library, for all scripts, and inserts each pair the
 * language's letters can spell into sorted linked lists and into the unicharset, whose
 * every new entry then gets an adaptive classifier's class: about 100 of the 115 ms of
 * CPU a start of `eng` takes (perf; bench/startup.py). The table serves
 * only the legacy engine (its adaptive classifier, stopper and permuter; a Tesseract built
 * without it, --disable-legacy, never loads it), no init variable or component of the
 * traineddata file turns it off, and TextRecognizer starts Tesseract in LSTM-only mode.
 *
 * So this stand-in of the same (mangled) name, exported from the executable
 * (--export-dynamic-symbol in Package.swift), is what libtesseract's call through its PLT
 * binds to when CLoader opens it: it loads nothing. Where it is not bound (a libtesseract
 * linked -Bsymbolic, or an executable that does not export it), Tesseract loads its own
 * table and reads the same words, only slower; qrseal_tesseract_skipped_ambiguities says
 * which happened. The mangled name encodes the parameters
 * (const tesseract::UNICHARSET &, tesseract::UNICHARSET *), so another signature does not
 * bind to it. */
static atomic_int qrseal_skipped_ambiguities;

__attribute__((visibility("default"))) void qrseal_tesseract_load_universal(void *ambigs, const void *encoder_set,
                                                                            void *unicharset)
    __asm__("_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_");

void qrseal_tesseract_load_universal(void *ambigs, const void *encoder_set, void *unicharset) {
    (void)ambigs;
    (void)encoder_set;
    (void)unicharset;
    atomic_store_explicit(&qrseal_skipped_ambiguities, 1, memory_order_release);
}

int qrseal_tesseract_skipped_ambiguities(void) {
    return atomic_load_explicit(&qrseal_skipped_ambiguities, memory_order_acquire);
}

/* Tesseract's start asserts (ASSERT_HOST) that the data it loads is sound, and a failed
 * assertion calls abort(); it may also hang or grow without bound on damaged data. Nothing
 * here catches that: unwinding C++ with longjmp would leave its locks held. Callers start
 * Tesseract on data files that have first started cleanly in the qrseal-engine helper
 * (qrseal_engine.h, TextRecognizer), where an abort ends only the helper. */
int qrseal_tesseract_start(void *handle, const char *datapath, const char *language) {
    return TessBaseAPIInit2(handle, datapath, language, OEM_LSTM_ONLY) == 0 ? 0 : -1;
}
