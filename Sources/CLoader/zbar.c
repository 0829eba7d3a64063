/* zbar (libzbar.so.0), opened when a zbar pass first runs: it brings X11, D-Bus, systemd,
 * libv4l and libgcrypt with it. The functions ZBarEngine+zbar.swift calls. */
#include <zbar.h>
#include "lazy.h"

#define ZBAR_FUNCTIONS(F, V)                                                                  \
    F(zbar_image_scanner_t *, zbar_image_scanner_create, (void), (), NULL)                    \
    V(zbar_image_scanner_destroy, (zbar_image_scanner_t *scanner), (scanner))                 \
    F(int, zbar_image_scanner_set_config,                                                     \
      (zbar_image_scanner_t *scanner, zbar_symbol_type_t symbology, zbar_config_t config, int value), \
      (scanner, symbology, config, value), 1)                                                 \
    F(zbar_image_t *, zbar_image_create, (void), (), NULL)                                    \
    V(zbar_image_destroy, (zbar_image_t *image), (image))                                     \
    V(zbar_image_set_format, (zbar_image_t *image, unsigned long format), (image, format))    \
    V(zbar_image_set_size, (zbar_image_t *image, unsigned width, unsigned height), (image, width, height)) \
    V(zbar_image_set_data,                                                                    \
      (zbar_image_t *image, const void *data, unsigned long length, zbar_image_cleanup_handler_t *cleanup), \
      (image, data, length, cleanup))                                                         \
    F(int, zbar_scan_image, (zbar_image_scanner_t *scanner, zbar_image_t *image), (scanner, image), -1) \
    F(const zbar_symbol_t *, zbar_image_first_symbol, (const zbar_image_t *image), (image), NULL) \
    F(const zbar_symbol_t *, zbar_symbol_next, (const zbar_symbol_t *symbol), (symbol), NULL) \
    F(zbar_symbol_type_t, zbar_symbol_get_type, (const zbar_symbol_t *symbol), (symbol), ZBAR_NONE) \
    F(int, zbar_symbol_get_quality, (const zbar_symbol_t *symbol), (symbol), 0)              \
    F(const char *, zbar_symbol_get_data, (const zbar_symbol_t *symbol), (symbol), NULL)      \
    F(unsigned int, zbar_symbol_get_data_length, (const zbar_symbol_t *symbol), (symbol), 0)  \
    F(unsigned, zbar_symbol_get_loc_size, (const zbar_symbol_t *symbol), (symbol), 0)         \
    F(int, zbar_symbol_get_loc_x, (const zbar_symbol_t *symbol, unsigned index), (symbol, index), -1) \
    F(int, zbar_symbol_get_loc_y, (const zbar_symbol_t *symbol, unsigned index), (symbol, index), -1) \
    F(const zbar_symbol_set_t *, zbar_symbol_get_components, (const zbar_symbol_t *symbol), (symbol), NULL) \
    F(const zbar_symbol_t *, zbar_symbol_set_first_symbol, (const zbar_symbol_set_t *symbols), (symbols), NULL)

QRSEAL_LAZY_LIBRARY(qrseal_lazy_zbar, "libzbar.so.0", ZBAR_FUNCTIONS)
