/* librsvg (librsvg-2.so.2, Debian 12's 2.54): the few declarations ImageDecoder+librsvg.swift
 * uses, as librsvg/rsvg.h and GLib's gerror.h declare them, so that neither GLib's headers
 * nor its link flags are needed (CLoader opens the library on first use; Sources/CLoader/rsvg.c). */
#ifndef QRSEAL_CRSVG_SHIM_H
#define QRSEAL_CRSVG_SHIM_H

typedef struct _RsvgHandle RsvgHandle;
/* GLib's GError (a quark, a code and a message), under a name of its own: GTK's headers,
 * which the desktop app's module brings into the same program, define GError themselves. */
typedef struct qrseal_gerror {
    unsigned int domain;
    int code;
    char *message;
} qrseal_gerror;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
struct _cairo;

RsvgHandle *rsvg_handle_new_from_data(const unsigned char *data, unsigned long data_len, qrseal_gerror **error);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
int rsvg_handle_render_document(RsvgHandle *handle, struct _cairo *cr, const RsvgRectangle *viewport, qrseal_gerror **error);
void g_object_unref(void *object);
/* g_error_free, through CLoader's glib.c (Sources/CLoader/glib.c). */
void qrseal_g_error_free(qrseal_gerror *error);

#endif
