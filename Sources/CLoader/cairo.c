/* cairo (libcairo.so.2), opened when a PDF sheet or a GIF's label is first drawn: it brings
 * X11, fontconfig, freetype and pixman with it. The functions Sheet+cairo.swift calls. */
#include <cairo/cairo-pdf.h>
#include "lazy.h"

#define CAIRO_FUNCTIONS(F, V)                                                                 \
    F(const char *, cairo_version_string, (void), (), NULL)                                   \
    F(cairo_surface_t *, cairo_pdf_surface_create_for_stream,                                 \
      (cairo_write_func_t write_func, void *closure, double width, double height),           \
      (write_func, closure, width, height), NULL)                                             \
    V(cairo_pdf_surface_set_metadata, (cairo_surface_t *surface, cairo_pdf_metadata_t metadata, \
                                       const char *utf8), (surface, metadata, utf8))          \
    F(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height), \
      (format, width, height), NULL)                                                          \
    F(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *surface), (surface), NULL) \
    F(int, cairo_image_surface_get_stride, (cairo_surface_t *surface), (surface), 0)         \
    F(cairo_surface_t *, cairo_recording_surface_create,                                      \
      (cairo_content_t content, const cairo_rectangle_t *extents), (content, extents), NULL)  \
    F(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface), CAIRO_STATUS_NO_MEMORY) \
    V(cairo_surface_flush, (cairo_surface_t *surface), (surface))                             \
    V(cairo_surface_finish, (cairo_surface_t *surface), (surface))                            \
    V(cairo_surface_destroy, (cairo_surface_t *surface), (surface))                           \
    F(cairo_t *, cairo_create, (cairo_surface_t *target), (target), NULL)                     \
    V(cairo_destroy, (cairo_t *cr), (cr))                                                     \
    F(cairo_status_t, cairo_status, (cairo_t *cr), (cr), CAIRO_STATUS_NO_MEMORY)              \
    F(const char *, cairo_status_to_string, (cairo_status_t status), (status), "cairo is not loaded") \
    V(cairo_save, (cairo_t *cr), (cr))                                                        \
    V(cairo_restore, (cairo_t *cr), (cr))                                                     \
    V(cairo_translate, (cairo_t *cr, double tx, double ty), (cr, tx, ty))                     \
    V(cairo_scale, (cairo_t *cr, double sx, double sy), (cr, sx, sy))                         \
    V(cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue), (cr, red, green, blue)) \
    V(cairo_set_source_surface, (cairo_t *cr, cairo_surface_t *surface, double x, double y),  \
      (cr, surface, x, y))                                                                    \
    V(cairo_rectangle, (cairo_t *cr, double x, double y, double width, double height),        \
      (cr, x, y, width, height))                                                              \
    V(cairo_fill, (cairo_t *cr), (cr))                                                        \
    V(cairo_paint, (cairo_t *cr), (cr))                                                       \
    V(cairo_show_page, (cairo_t *cr), (cr))                                                   \
    V(cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y))                           \
    V(cairo_select_font_face, (cairo_t *cr, const char *family, cairo_font_slant_t slant,     \
                               cairo_font_weight_t weight), (cr, family, slant, weight))      \
    V(cairo_set_font_size, (cairo_t *cr, double size), (cr, size))                            \
    V(cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8))                           \
    V(cairo_text_extents, (cairo_t *cr, const char *utf8, cairo_text_extents_t *extents),     \
      (cr, utf8, extents))

QRSEAL_LAZY_LIBRARY(qrseal_lazy_cairo, "libcairo.so.2", CAIRO_FUNCTIONS)
