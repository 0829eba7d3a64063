/* GObject and GLib (libgobject-2.0.so.0, which needs libglib-2.0.so.0): the two functions
 * that free what poppler and librsvg hand back, shared by both wrappers. They are called
 * only after one of those libraries was opened, which opens these. */
#include "../CPoppler/shim.h"
#include "lazy.h"

/* GLib's own prototype, for this file only (the shims name the error type apart). */
void g_error_free(qrseal_gerror *error);

#define GLIB_FUNCTIONS(F, V)                                                                  \
    V(g_object_unref, (void *object), (object))                                               \
    V(g_error_free, (qrseal_gerror *error), (error))

QRSEAL_LAZY_LIBRARY(qrseal_lazy_glib, "libgobject-2.0.so.0", GLIB_FUNCTIONS)

void qrseal_g_error_free(qrseal_gerror *error) { g_error_free(error); }
