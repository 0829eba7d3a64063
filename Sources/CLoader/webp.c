/* libwebp (libwebp.so.7), opened when a WebP image is first read. The functions
 * ImageDecoder+libwebp.swift calls (WebPGetFeatures is an inline function of the header
 * that calls WebPGetFeaturesInternal). */
/* The header marks its functions visible; ours stand in for them hidden (lazy.h). */
#define WEBP_EXTERN extern
#include <webp/decode.h>
#include "lazy.h"

#define WEBP_FUNCTIONS(F, V)                                                                  \
    F(VP8StatusCode, WebPGetFeaturesInternal, (const uint8_t *data, size_t data_size,         \
                                               WebPBitstreamFeatures *features, int version), \
      (data, data_size, features, version), VP8_STATUS_UNSUPPORTED_FEATURE)                   \
    F(uint8_t *, WebPDecodeRGBAInto, (const uint8_t *data, size_t data_size, uint8_t *output_buffer, \
                                      size_t output_buffer_size, int output_stride),          \
      (data, data_size, output_buffer, output_buffer_size, output_stride), NULL)

QRSEAL_LAZY_LIBRARY(qrseal_lazy_webp, "libwebp.so.7", WEBP_FUNCTIONS)
