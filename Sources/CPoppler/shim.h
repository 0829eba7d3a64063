/* poppler's GLib interface (libpoppler-glib.so.8, Debian 12's 22.12): the few declarations
 * ImageDecoder+poppler.swift uses, as poppler/glib/poppler-document.h and poppler-page.h
 * and GLib's gerror.h declare them, so that neither GLib's headers nor its link flags are
 * needed (CLoader opens the library on first use; Sources/CLoader/poppler.c). */
#ifndef QRSEAL_CPOPPLER_SHIM_H
#define QRSEAL_CPOPPLER_SHIM_H

typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;
/* GLib's GError: a quark, a code and a message. */
typedef struct _GError {
    unsigned int domain;
    int code;
    char *message;
} GError;
struct _cairo;

PopplerDocument *poppler_document_new_from_data(char *data, int length, const char *password, GError **error);
int poppler_document_get_n_pages(PopplerDocument *document);
PopplerPage *poppler_document_get_page(PopplerDocument *document, int index);
void poppler_page_get_size(PopplerPage *page, double *width, double *height);
void poppler_page_render(PopplerPage *page, struct _cairo *cairo);
void g_object_unref(void *object);
void g_error_free(GError *error);

#endif
