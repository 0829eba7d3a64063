/* librsvg (librsvg-2.so.2, Debian 12's 2.54): the few declarations ImageDecoder+librsvg.swift
 * uses, as librsvg/rsvg.h and GLib's gerror.h declare them, so that neither GLib's headers
 * nor its link flags are needed (CLoader opens the library on first use; Sources/CLoader/rsvg.c). */
#ifndef QRSEAL_CRSVG_SHIM_H
#define QRSEAL_CRSVG_SHIM_H

typedef struct _RsvgHandle RsvgHandle;
/* GLib's GError: a quark, a code and a message. */
typedef struct _GError {
    unsigned int domain;
    int code;
    char *message;
} GError;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
struct _cairo;

RsvgHandle *rsvg_handle_new_from_data(const unsigned char *data, unsigned long data_len, GError **error);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
int rsvg_handle_render_document(RsvgHandle *handle, struct _cairo *cr, const RsvgRectangle *viewport, GError **error);
void g_object_unref(void *object);
void g_error_free(GError *error);

#endif
