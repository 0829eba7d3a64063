/* poppler's GLib interface (libpoppler-glib.so.8), opened when a PDF is first read: it brings
 * poppler, cairo, GLib and their fonts with it. The functions ImageDecoder+poppler.swift
 * calls, declared in CPoppler's shim (GLib's two, in glib.c). */
#include "../CPoppler/shim.h"
#include "lazy.h"

#define POPPLER_FUNCTIONS(F, V)                                                               \
    F(PopplerDocument *, poppler_document_new_from_data,                                      \
      (char *data, int length, const char *password, qrseal_gerror **error), (data, length, password, error), NULL) \
    F(int, poppler_document_get_n_pages, (PopplerDocument *document), (document), 0)          \
    F(PopplerPage *, poppler_document_get_page, (PopplerDocument *document, int index), (document, index), NULL) \
    V(poppler_page_get_size, (PopplerPage *page, double *width, double *height), (page, width, height)) \
    V(poppler_page_render, (PopplerPage *page, struct _cairo *cairo), (page, cairo))

QRSEAL_LAZY_LIBRARY(qrseal_lazy_poppler, "libpoppler-glib.so.8", POPPLER_FUNCTIONS)
