#ifndef QRSEAL_LAZY_H
#define QRSEAL_LAZY_H

/* How a library opened on first use is declared: each library's file lists the functions
 * qrseal calls, with their prototypes from the library's own header, as
 *   F(return type, name, (parameters), (arguments), value returned when it is not loaded)
 *   V(name, (parameters), (arguments))            for functions returning void
 * and QRSEAL_LAZY_LIBRARY defines, from that list, one function of the same name and
 * prototype each (the compiler checks it against the header) that loads the library on
 * first use and calls through to it. Nothing links the library itself. */

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include "loader.h"

struct qrseal_lazy_library {
    const char *soname;
    const char *const *names;
    void **functions;
    size_t count;
    /* Runs qrseal_lazy_open on this library, for pthread_once. */
    void (*open)(void);
    pthread_once_t once;
    int loaded;
    /* Set once qrseal_lazy_open has run, for qrseal_library_failure (no pthread_once there). */
    atomic_int opened;
    char error[512];
};

/* Opens `library` (dlopen) and resolves every function of its list (dlsym); run once. */
void qrseal_lazy_open(struct qrseal_lazy_library *library);

/* Hidden: the executable is linked with --export-dynamic (the static Swift runtime asks for it),
 * and an exported stand-in would be bound in place of the library's own function wherever
 * the library calls itself. Hidden, the library binds to its own, and qrseal's code to ours. */
#define QRSEAL_LAZY_HIDDEN __attribute__((visibility("hidden")))

#define QRSEAL_LAZY_INDEX(ret, name, params, args, failure) qrseal_index_##name,
#define QRSEAL_LAZY_VINDEX(name, params, args) qrseal_index_##name,
#define QRSEAL_LAZY_NAME(ret, name, params, args, failure) #name,
#define QRSEAL_LAZY_VNAME(name, params, args) #name,
#define QRSEAL_LAZY_FORWARD(ret, name, params, args, failure)                           \
    QRSEAL_LAZY_HIDDEN ret name params {                                                \
        if (!qrseal_lazy_ready()) return failure;                                       \
        return ((__typeof__(&name))qrseal_functions[qrseal_index_##name]) args;          \
    }
#define QRSEAL_LAZY_VFORWARD(name, params, args)                                        \
    QRSEAL_LAZY_HIDDEN void name params {                                               \
        if (qrseal_lazy_ready())                                                        \
            ((__typeof__(&name))qrseal_functions[qrseal_index_##name]) args;             \
    }

/* The library `variable` (as loader.c names it) at `soname`, with the functions of LIST. */
#define QRSEAL_LAZY_LIBRARY(variable, soname_, LIST)                                    \
    enum { LIST(QRSEAL_LAZY_INDEX, QRSEAL_LAZY_VINDEX) qrseal_function_count };         \
    static const char *const qrseal_names[] = { LIST(QRSEAL_LAZY_NAME, QRSEAL_LAZY_VNAME) }; \
    static void *qrseal_functions[qrseal_function_count];                               \
    static void qrseal_lazy_init(void);                                                 \
    struct qrseal_lazy_library variable = {                                             \
        .soname = soname_, .names = qrseal_names, .functions = qrseal_functions,        \
        .count = qrseal_function_count, .open = qrseal_lazy_init,                       \
        .once = PTHREAD_ONCE_INIT,                                                      \
    };                                                                                  \
    static struct qrseal_lazy_library *const qrseal_lazy_self = &variable;              \
    static void qrseal_lazy_init(void) { qrseal_lazy_open(qrseal_lazy_self); }          \
    static int qrseal_lazy_ready(void) {                                                \
        pthread_once(&qrseal_lazy_self->once, qrseal_lazy_init);                        \
        return qrseal_lazy_self->loaded;                                                \
    }                                                                                   \
    LIST(QRSEAL_LAZY_FORWARD, QRSEAL_LAZY_VFORWARD)

#endif
