/* librsvg (librsvg-2.so.2), opened when an SVG is first read: it brings cairo, pango and GLib
 * with it. The functions ImageDecoder+librsvg.swift calls, declared in CRsvg's shim (GLib's two, in glib.c). */
#include "../CRsvg/shim.h"
#include "lazy.h"

#define RSVG_FUNCTIONS(F, V)                                                                  \
    F(RsvgHandle *, rsvg_handle_new_from_data, (const unsigned char *data, unsigned long data_len, qrseal_gerror **error), \
      (data, data_len, error), NULL)                                                          \
    F(int, rsvg_handle_get_intrinsic_size_in_pixels, (RsvgHandle *handle, double *out_width, double *out_height), \
      (handle, out_width, out_height), 0)                                                     \
    F(int, rsvg_handle_render_document, (RsvgHandle *handle, struct _cairo *cr, const RsvgRectangle *viewport, \
                                         qrseal_gerror **error), (handle, cr, viewport, error), 0)

QRSEAL_LAZY_LIBRARY(qrseal_lazy_rsvg, "librsvg-2.so.2", RSVG_FUNCTIONS)
