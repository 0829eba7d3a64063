/* giflib (libgif.so.7), opened when an animated GIF is first written or a GIF first read.
 * The functions AnimatedGIF+giflib.swift and ImageDecoder+giflib.swift call. */
#include <stdbool.h>
#include <gif_lib.h>
#include "lazy.h"

#define GIF_FUNCTIONS(F, V)                                                                   \
    F(GifFileType *, EGifOpen, (void *userPtr, OutputFunc writeFunc, int *Error),             \
      (userPtr, writeFunc, Error), NULL)                                                      \
    V(EGifSetGifVersion, (GifFileType *GifFile, const bool gif89), (GifFile, gif89))          \
    F(int, EGifPutScreenDesc, (GifFileType *GifFile, const int GifWidth, const int GifHeight, \
                               const int GifColorRes, const int GifBackGround,                \
                               const ColorMapObject *GifColorMap),                            \
      (GifFile, GifWidth, GifHeight, GifColorRes, GifBackGround, GifColorMap), GIF_ERROR)     \
    F(int, EGifPutImageDesc, (GifFileType *GifFile, const int GifLeft, const int GifTop,      \
                              const int GifWidth, const int GifHeight, const bool GifInterlace, \
                              const ColorMapObject *GifColorMap),                             \
      (GifFile, GifLeft, GifTop, GifWidth, GifHeight, GifInterlace, GifColorMap), GIF_ERROR)  \
    F(int, EGifPutLine, (GifFileType *GifFile, GifPixelType *GifLine, int GifLineLen),        \
      (GifFile, GifLine, GifLineLen), GIF_ERROR)                                              \
    F(int, EGifPutExtension, (GifFileType *GifFile, const int GifExtCode, const int GifExtLen, \
                              const void *GifExtension), (GifFile, GifExtCode, GifExtLen, GifExtension), GIF_ERROR) \
    F(int, EGifPutExtensionLeader, (GifFileType *GifFile, const int GifExtCode), (GifFile, GifExtCode), GIF_ERROR) \
    F(int, EGifPutExtensionBlock, (GifFileType *GifFile, const int GifExtLen, const void *GifExtension), \
      (GifFile, GifExtLen, GifExtension), GIF_ERROR)                                          \
    F(int, EGifPutExtensionTrailer, (GifFileType *GifFile), (GifFile), GIF_ERROR)             \
    F(size_t, EGifGCBToExtension, (const GraphicsControlBlock *GCB, GifByteType *GifExtension), \
      (GCB, GifExtension), 0)                                                                 \
    F(int, EGifCloseFile, (GifFileType *GifFile, int *ErrorCode), (GifFile, ErrorCode), GIF_ERROR) \
    F(ColorMapObject *, GifMakeMapObject, (int ColorCount, const GifColorType *ColorMap),     \
      (ColorCount, ColorMap), NULL)                                                           \
    V(GifFreeMapObject, (ColorMapObject *Object), (Object))                                   \
    F(const char *, GifErrorString, (int ErrorCode), (ErrorCode), NULL)                       \
    F(GifFileType *, DGifOpen, (void *userPtr, InputFunc readFunc, int *Error),               \
      (userPtr, readFunc, Error), NULL)                                                       \
    F(int, DGifGetRecordType, (GifFileType *GifFile, GifRecordType *GifType), (GifFile, GifType), GIF_ERROR) \
    F(int, DGifGetImageDesc, (GifFileType *GifFile), (GifFile), GIF_ERROR)                    \
    F(int, DGifGetLine, (GifFileType *GifFile, GifPixelType *GifLine, int GifLineLen),        \
      (GifFile, GifLine, GifLineLen), GIF_ERROR)                                              \
    F(int, DGifGetExtension, (GifFileType *GifFile, int *GifExtCode, GifByteType **GifExtension), \
      (GifFile, GifExtCode, GifExtension), GIF_ERROR)                                         \
    F(int, DGifGetExtensionNext, (GifFileType *GifFile, GifByteType **GifExtension),          \
      (GifFile, GifExtension), GIF_ERROR)                                                     \
    F(int, DGifExtensionToGCB, (const size_t GifExtensionLength, const GifByteType *GifExtension, \
                                GraphicsControlBlock *GCB), (GifExtensionLength, GifExtension, GCB), GIF_ERROR) \
    F(int, DGifCloseFile, (GifFileType *GifFile, int *ErrorCode), (GifFile, ErrorCode), GIF_ERROR)

QRSEAL_LAZY_LIBRARY(qrseal_lazy_gif, "libgif.so.7", GIF_FUNCTIONS)
