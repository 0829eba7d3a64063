/* poppler's GLib interface (libpoppler-glib.so.8, Debian 12's 22.12): the few declarations
 * ImageDecoder+poppler.swift uses, as poppler/glib/poppler-document.h and poppler-page.h
 * and GLib's gerror.h declare them, so that neither GLib's headers nor its link flags are
 * needed (CLoader opens the library on first use; Sources/CLoader/poppler.c). */
#ifndef QRSEAL_CPOPPLER_SHIM_H
#define QRSEAL_CPOPPLER_SHIM_H

typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;
/* GLib's GError (a quark, a code and a message), under a name of its own: GTK's headers,
 * which the desktop app's module brings into the same program, define GError themselves. */
typedef struct qrseal_gerror {
    unsigned int domain;
    int code;
    char *message;
} qrseal_gerror;
struct _cairo;

PopplerDocument *poppler_document_new_from_data(char *data, int length, const char *password, qrseal_gerror **error);
int poppler_document_get_n_pages(PopplerDocument *document);
PopplerPage *poppler_document_get_page(PopplerDocument *document, int index);
void poppler_page_get_size(PopplerPage *page, double *width, double *height);
void poppler_page_render(PopplerPage *page, struct _cairo *cairo);
void g_object_unref(void *object);
/* g_error_free, through CLoader's glib.c (Sources/CLoader/glib.c). */
void qrseal_g_error_free(qrseal_gerror *error);

#endif
