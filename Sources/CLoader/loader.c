#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "lazy.h"

extern struct qrseal_lazy_library qrseal_lazy_zbar, qrseal_lazy_tesseract, qrseal_lazy_cairo, qrseal_lazy_gif,
    qrseal_lazy_sqlite, qrseal_lazy_crypto, qrseal_lazy_tiff, qrseal_lazy_webp, qrseal_lazy_poppler, qrseal_lazy_rsvg;

/* In the order of enum qrseal_library. */
static struct qrseal_lazy_library *const libraries[] = {
    &qrseal_lazy_zbar, &qrseal_lazy_tesseract, &qrseal_lazy_cairo, &qrseal_lazy_gif, &qrseal_lazy_sqlite,
    &qrseal_lazy_crypto, &qrseal_lazy_tiff, &qrseal_lazy_webp, &qrseal_lazy_poppler, &qrseal_lazy_rsvg,
};

static struct qrseal_lazy_library *library_for(enum qrseal_library library) {
    size_t index = (size_t)library;
    return index < sizeof libraries / sizeof libraries[0] ? libraries[index] : NULL;
}

void qrseal_lazy_open(struct qrseal_lazy_library *library) {
    /* RTLD_GLOBAL: `qrseal doctor` asks the loaded libraries their versions by dlsym. The
     * handle is never closed: the functions stay in use until the process ends. */
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "%s", reason ? reason : library->soname);
        atomic_store_explicit(&library->opened, 1, memory_order_release);
        return;
    }
    for (size_t i = 0; i < library->count; i++) {
        dlerror();
        library->functions[i] = dlsym(handle, library->names[i]);
        if (!library->functions[i]) {
            snprintf(library->error, sizeof library->error, "%s has no function %s", library->soname,
                     library->names[i]);
            atomic_store_explicit(&library->opened, 1, memory_order_release);
            return;
        }
    }
    library->loaded = 1;
    atomic_store_explicit(&library->opened, 1, memory_order_release);
}

int qrseal_library_load(enum qrseal_library which) {
    struct qrseal_lazy_library *library = library_for(which);
    if (!library) return -1;
    pthread_once(&library->once, library->open);
    return library->loaded ? 0 : -1;
}

const char *qrseal_library_error(enum qrseal_library which) {
    struct qrseal_lazy_library *library = library_for(which);
    if (!library) return "unknown library";
    pthread_once(&library->once, library->open);
    return library->loaded ? NULL : library->error;
}

const char *qrseal_library_soname(enum qrseal_library which) {
    struct qrseal_lazy_library *library = library_for(which);
    return library ? library->soname : "";
}

const char *qrseal_library_failure(enum qrseal_library which) {
    struct qrseal_lazy_library *library = library_for(which);
    if (!library || !atomic_load_explicit(&library->opened, memory_order_acquire)) return NULL;
    return library->loaded ? NULL : library->error;
}
