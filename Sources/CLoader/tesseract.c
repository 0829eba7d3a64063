/* Tesseract (libtesseract.so.5), opened when text is first recognised: with leptonica,
 * libarchive, curl, libgomp, webp, tiff, openjp2 … it is most of what the process would
 * load. The functions TextRecognizer+tesseract.swift calls, and a few more of the same API
 * (a function called from Swift must be listed here, or the link fails on its name). */
#include <tesseract/capi.h>
#include "lazy.h"

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
