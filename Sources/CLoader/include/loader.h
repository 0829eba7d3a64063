#ifndef QRSEAL_LOADER_H
#define QRSEAL_LOADER_H

/* The shared libraries qrseal opens when a command first needs one (dlopen), so that a
 * process that never draws a PDF, reads zbar's way or recognises text does not pay for
 * loading them and their own dependencies at start-up. Each is opened by its versioned
 * soname, once per process, and every function qrseal calls is resolved at that moment. */

enum qrseal_library {
    QRSEAL_LIBRARY_ZBAR,
    QRSEAL_LIBRARY_TESSERACT,
    QRSEAL_LIBRARY_CAIRO,
    QRSEAL_LIBRARY_GIF,
    QRSEAL_LIBRARY_SQLITE,
    QRSEAL_LIBRARY_CRYPTO,
    QRSEAL_LIBRARY_TIFF,
    QRSEAL_LIBRARY_WEBP,
    QRSEAL_LIBRARY_POPPLER,
    QRSEAL_LIBRARY_RSVG,
};

/* Opens `library` on the first call (thread-safe); 0 when it is loaded, -1 when it cannot be. */
int qrseal_library_load(enum qrseal_library library);

/* Why the library could not be loaded (the loader's message), or NULL when it was. */
const char *qrseal_library_error(enum qrseal_library library);

/* Why an earlier attempt to open `library` failed; NULL when it opened or was never tried.
 * Unlike qrseal_library_error, it never opens the library. */
const char *qrseal_library_failure(enum qrseal_library library);

/* The file name the loader looks for: "libzbar.so.0" … */
const char *qrseal_library_soname(enum qrseal_library library);

#endif
