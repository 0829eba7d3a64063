/* The caller's side of qrseal_engine.h: starts qrseal-engine, hands it requests, and waits
 * for each answer no longer than its deadline. */
#define _GNU_SOURCE
#include "qrseal_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct qe_engine {
    pid_t pid;              /* 0 when no helper runs */
    int socket;             /* our end of the pair, -1 when closed */
    int shared;             /* the memfd, -1 when none */
    uint8_t *mapping;       /* the memfd mapped here, `capacity` bytes */
    size_t capacity;
    int usable;
    int signal;             /* what ended the helper, after QE_CRASHED */
    char error[256];        /* why it could not start, after QE_UNAVAILABLE */
};

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A descriptor at 5 or above, close-on-exec, so that the dup2s to 3 and 4 cannot collide. */
static int moved_high(int fd) {
    if (fd >= 5) return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 5);
    close(fd);
    return high;
}

static void unavailable(qe_engine *e, const char *what, int error) {
    snprintf(e->error, sizeof e->error, "%s: %s", what, strerror(error));
    e->usable = 0;
}

qe_engine *qe_start(const char *path) {
    qe_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->socket = -1;
    e->shared = -1;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        unavailable(e, "socketpair", errno);
        return e;
    }
    e->socket = moved_high(pair[0]);
    int theirs = moved_high(pair[1]);
    e->shared = moved_high(memfd_create("qrseal-engine", MFD_CLOEXEC));
    if (e->socket < 0 || theirs < 0 || e->shared < 0) {
        unavailable(e, "descriptors", errno);
        if (theirs >= 0) close(theirs);
        return e;
    }
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&files);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&files, theirs, 3);
    posix_spawn_file_actions_adddup2(&files, e->shared, 4);
    /* Every signal at its default and none blocked; a process group of its own, so that a
     * Ctrl-C at the terminal reaches the caller (which decides) and not the helper. */
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    char *argv[] = {(char *)path, NULL};
    /* Nothing of the caller's environment (a passphrase may be in it); one OpenMP thread. */
    char *envp[] = {"OMP_THREAD_LIMIT=1", NULL};
    int failed = posix_spawn(&e->pid, path, &files, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    close(theirs);
    if (failed) {
        e->pid = 0;
        unavailable(e, path, failed);
        return e;
    }
    e->usable = 1;
    return e;
}

/* Waits up to `grace_ms` for the helper to end by itself, then kills it; records the signal. */
static void reap(qe_engine *e, int grace_ms) {
    if (e->pid <= 0) return;
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; waited <= grace_ms; waited += 2) {
        done = waitpid(e->pid, &status, WNOHANG);
        if (done != 0) break;
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    if (done == 0) {
        kill(e->pid, SIGKILL);
        while ((done = waitpid(e->pid, &status, 0)) < 0 && errno == EINTR) {}
    }
    e->signal = done > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    e->pid = 0;
}

static qe_outcome ended(qe_engine *e, qe_outcome outcome) {
    e->usable = 0;
    if (outcome == QE_TIMED_OUT && e->pid > 0) kill(e->pid, SIGKILL);
    reap(e, outcome == QE_CRASHED ? 1000 : 0);
    if (e->socket >= 0) close(e->socket);
    e->socket = -1;
    return outcome;
}

void qe_stop(qe_engine *e) {
    if (!e) return;
    if (e->socket >= 0) close(e->socket);
    e->socket = -1;
    reap(e, 200);
    if (e->mapping) munmap(e->mapping, e->capacity);
    if (e->shared >= 0) close(e->shared);
    free(e);
}

int qe_is_usable(const qe_engine *e) { return e && e->usable; }
int qe_engine_signal(const qe_engine *e) { return e ? e->signal : 0; }
const char *qe_engine_error(const qe_engine *e) { return e && e->error[0] ? e->error : NULL; }

/* Sends all of `bytes`; false when the helper is gone (MSG_NOSIGNAL: no SIGPIPE). */
static int send_all(qe_engine *e, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    while (count > 0) {
        ssize_t n = send(e->socket, p, count, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        count -= (size_t)n;
    }
    return 1;
}

/* Receives exactly `count` bytes by `deadline`: QE_DONE, QE_CRASHED (end of stream or an
 * error: the helper died) or QE_TIMED_OUT. */
static qe_outcome receive_all(qe_engine *e, void *bytes, size_t count, int64_t deadline) {
    uint8_t *p = bytes;
    while (count > 0) {
        int64_t left = deadline - now_ms();
        if (left <= 0) return QE_TIMED_OUT;
        struct pollfd wait = {e->socket, POLLIN, 0};
        int ready = poll(&wait, 1, left > 60000 ? 60000 : (int)left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return QE_CRASHED;
        if (ready == 0) continue;
        ssize_t n = recv(e->socket, p, count, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return QE_CRASHED;
        p += n;
        count -= (size_t)n;
    }
    return QE_DONE;
}

/* Sends `request` (and `tail`), then receives the answer's header and payload (malloc'd,
 * NULL when empty) by `deadline`. */
static qe_outcome exchange(qe_engine *e, const qe_request *request, const void *tail, size_t tail_size,
                           int64_t deadline, qe_reply *reply, uint8_t **payload) {
    *payload = NULL;
    if (!send_all(e, request, sizeof *request) || (tail_size && !send_all(e, tail, tail_size)))
        return ended(e, QE_CRASHED);
    qe_outcome got = receive_all(e, reply, sizeof *reply, deadline);
    if (got != QE_DONE) return ended(e, got);
    if (reply->magic != QE_MAGIC || reply->payload_size > QE_MAX_PAYLOAD) return ended(e, QE_BROKEN);
    if (reply->payload_size == 0) return QE_DONE;
    *payload = malloc(reply->payload_size);
    if (!*payload) return ended(e, QE_BROKEN);
    got = receive_all(e, *payload, reply->payload_size, deadline);
    if (got != QE_DONE) {
        free(*payload);
        *payload = NULL;
        return ended(e, got);
    }
    return QE_DONE;
}

/* Grows the shared memory to hold `size` bytes (at least 1 MiB, doubling). */
static int reserve(qe_engine *e, size_t size) {
    if (size <= e->capacity) return 1;
    size_t capacity = e->capacity ? e->capacity : (size_t)1 << 20;
    while (capacity < size) capacity *= 2;
    if (ftruncate(e->shared, (off_t)capacity) != 0) return 0;
    void *mapping = mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, e->shared, 0);
    if (mapping == MAP_FAILED) return 0;
    if (e->mapping) munmap(e->mapping, e->capacity);
    e->mapping = mapping;
    e->capacity = capacity;
    return 1;
}

/* Turns an answer's payload into results, checking every size; 0 when it is out of shape. */
static int parse_results(const uint8_t *payload, size_t size, uint32_t count, zxs_results *out) {
    if (count == 0) return size == 0;
    if (count > size / sizeof(qe_wire_result)) return 0;
    out->items = calloc(count, sizeof(zxs_result));
    if (!out->items) return 0;
    size_t at = 0;
    for (uint32_t i = 0; i < count; ++i) {
        qe_wire_result w;
        if (size - at < sizeof w) return 0;
        memcpy(&w, payload + at, sizeof w);
        at += sizeof w;
        if (w.byte_count > size - at || w.text_length > size - at - w.byte_count) return 0;
        zxs_result *r = &out->items[out->count++];
        r->format = w.format;
        r->byte_count = w.byte_count;
        if (w.byte_count) {
            uint8_t *bytes = malloc(w.byte_count);
            if (!bytes) return 0;
            memcpy(bytes, payload + at, w.byte_count);
            r->bytes = bytes;
        }
        at += w.byte_count;
        if (w.has_text) {
            char *text = malloc((size_t)w.text_length + 1);
            if (!text) return 0;
            memcpy(text, payload + at, w.text_length);
            text[w.text_length] = '\0';
            r->text = text;
            r->text_length = w.text_length;
        }
        at += w.text_length;
        r->has_eci = w.has_eci;
        memcpy(r->corners, w.corners, sizeof r->corners);
        memcpy(r->ec_level, w.ec_level, sizeof r->ec_level);
        r->ec_level[sizeof r->ec_level - 1] = '\0';
        r->orientation = w.orientation;
        r->is_mirrored = w.is_mirrored;
        r->sequence_index = w.sequence_index;
        r->sequence_size = w.sequence_size;
        r->sequence_parity = w.sequence_parity;
    }
    return at == size;
}

/* A request of `kind` for pixels of `width` × `height` in the shared memory (0 × 0: none). */
static qe_request request_of(const qe_engine *e, uint32_t kind, int width, int height, uint64_t memory_limit) {
    qe_request request;
    memset(&request, 0, sizeof request);
    request.magic = QE_MAGIC;
    request.kind = kind;
    request.width = (uint32_t)width;
    request.height = (uint32_t)height;
    request.shared_size = e->capacity;
    request.memory_limit = memory_limit;
    return request;
}

/* What a request to an engine that cannot take one ends with. */
static qe_outcome refused(const qe_engine *e) {
    return e && e->pid == 0 && e->error[0] ? QE_UNAVAILABLE : QE_BROKEN;
}

qe_outcome qe_read_zxing(qe_engine *e, const uint8_t *pixels, int width, int height, int stride,
                         const zxs_options *options, uint64_t memory_limit, int timeout_ms,
                         zxs_results *out) {
    memset(out, 0, sizeof *out);
    if (!e || !e->usable) return refused(e);
    if (!pixels || !options || width <= 0 || height <= 0 || stride < width) {
        out->error = ZXS_ERROR_BAD_ARGUMENT;
        return QE_DONE;
    }
    size_t size = (size_t)width * (size_t)height;
    if (size / (size_t)width != (size_t)height || !reserve(e, size)) {
        out->error = ZXS_ERROR_NO_MEMORY;
        return QE_DONE;
    }
    for (int y = 0; y < height; ++y)
        memcpy(e->mapping + (size_t)y * (size_t)width, pixels + (size_t)y * (size_t)stride, (size_t)width);
    qe_request request = request_of(e, QE_REQUEST_READ_ZXING, width, height, memory_limit);
    request.options = *options;
    qe_reply reply;
    uint8_t *payload;
    qe_outcome got = exchange(e, &request, NULL, 0, now_ms() + timeout_ms, &reply, &payload);
    if (got != QE_DONE) return got;
    int parsed = parse_results(payload, reply.payload_size, reply.count, out);
    free(payload);
    if (!parsed) {
        qe_free_results(out);
        return ended(e, QE_BROKEN);
    }
    out->error = reply.status;
    return QE_DONE;
}

qe_outcome qe_start_tesseract(qe_engine *e, const char *datapath, const char *language,
                              const uint8_t *sample, int width, int height,
                              uint64_t memory_limit, int timeout_ms, int *status) {
    *status = -1;
    if (!e || !e->usable) return refused(e);
    size_t path_size = strlen(datapath) + 1, language_size = strlen(language) + 1;
    if (path_size > QE_MAX_STRING || language_size > QE_MAX_STRING) return QE_DONE;
    if (!sample || width <= 0 || height <= 0 || !reserve(e, (size_t)width * (size_t)height)) return QE_DONE;
    memcpy(e->mapping, sample, (size_t)width * (size_t)height);
    char strings[2 * QE_MAX_STRING];
    memcpy(strings, datapath, path_size);
    memcpy(strings + path_size, language, language_size);
    qe_request request = request_of(e, QE_REQUEST_START_TESSERACT, width, height, memory_limit);
    request.string_lengths[0] = (uint32_t)path_size;
    request.string_lengths[1] = (uint32_t)language_size;
    qe_reply reply;
    uint8_t *payload;
    qe_outcome got = exchange(e, &request, strings, path_size + language_size, now_ms() + timeout_ms,
                              &reply, &payload);
    free(payload);
    if (got == QE_DONE) *status = reply.status;
    return got;
}

qe_outcome qe_describe(qe_engine *e, char *path, size_t size, int timeout_ms) {
    if (size) path[0] = '\0';
    if (!e || !e->usable) return refused(e);
    qe_request request = request_of(e, QE_REQUEST_DESCRIBE, 0, 0, 0);
    qe_reply reply;
    uint8_t *payload;
    qe_outcome got = exchange(e, &request, NULL, 0, now_ms() + timeout_ms, &reply, &payload);
    if (got == QE_DONE && size) {
        size_t n = reply.payload_size < size - 1 ? reply.payload_size : size - 1;
        if (n) memcpy(path, payload, n);
        path[n] = '\0';
    }
    free(payload);
    return got;
}

void qe_free_results(zxs_results *results) {
    if (!results) return;
    for (size_t i = 0; i < results->count; ++i) {
        free((void *)results->items[i].bytes);
        free((void *)results->items[i].text);
    }
    free(results->items);
    results->items = NULL;
    results->count = 0;
}
