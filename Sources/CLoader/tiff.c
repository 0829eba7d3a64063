/* libtiff (libtiff.so.6), opened when a TIFF is first read: it brings libjpeg, zstd, lzma,
 * jbig, deflate and Lerc with it. The functions ImageDecoder+libtiff.swift calls. */
#include <tiffio.h>
#include "lazy.h"

#define TIFF_FUNCTIONS(F, V)                                                                  \
    F(TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), (), NULL)                              \
    V(TIFFOpenOptionsFree, (TIFFOpenOptions *opts), (opts))                                   \
    V(TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions *opts, tmsize_t max_single_mem_alloc), \
      (opts, max_single_mem_alloc))                                                           \
    V(TIFFOpenOptionsSetErrorHandlerExtR, (TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, \
                                           void *errorhandler_user_data), (opts, handler, errorhandler_user_data)) \
    V(TIFFOpenOptionsSetWarningHandlerExtR, (TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, \
                                             void *warnhandler_user_data), (opts, handler, warnhandler_user_data)) \
    F(TIFF *, TIFFClientOpenExt, (const char *name, const char *mode, thandle_t handle,        \
                                  TIFFReadWriteProc readproc, TIFFReadWriteProc writeproc,     \
                                  TIFFSeekProc seekproc, TIFFCloseProc closeproc, TIFFSizeProc sizeproc, \
                                  TIFFMapFileProc mapproc, TIFFUnmapFileProc unmapproc,        \
                                  TIFFOpenOptions *opts),                                      \
      (name, mode, handle, readproc, writeproc, seekproc, closeproc, sizeproc, mapproc, unmapproc, opts), NULL) \
    V(TIFFClose, (TIFF *tif), (tif))                                                          \
    F(int, TIFFReadDirectory, (TIFF *tif), (tif), 0)                                          \
    F(int, TIFFRGBAImageBegin, (TIFFRGBAImage *img, TIFF *tif, int stop, char emsg[1024]),    \
      (img, tif, stop, emsg), 0)                                                              \
    F(int, TIFFRGBAImageGet, (TIFFRGBAImage *img, uint32_t *raster, uint32_t w, uint32_t h),  \
      (img, raster, w, h), 0)                                                                 \
    V(TIFFRGBAImageEnd, (TIFFRGBAImage *img), (img))

QRSEAL_LAZY_LIBRARY(qrseal_lazy_tiff, "libtiff.so.6", TIFF_FUNCTIONS)
