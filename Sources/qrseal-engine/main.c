/* qrseal-engine: the helper process of qrseal_engine.h. It reads requests from fd 3 and the
 * pixels they name from the shared memory at fd 4, runs zxing-cpp (through CZXingShim) or
 * Tesseract's start (through CLoader) on them, and answers on fd 3, one request at a time,
 * until the other end closes. It holds no secret; whatever the libraries do to it (an
 * assertion, a memory error, a hang) ends this process and no other. */
#define _GNU_SOURCE
#include "qrseal_engine.h"
#include "zxing_shim.h"
#include "loader.h"
#include "tesseract_start.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <tesseract/capi.h>

enum { WIRE = 3, SHARED = 4 };

/* This is a C program, but SwiftPM links every executable through swiftc, whose start file
 * (swiftrt.o) registers the image's Swift metadata with the Swift runtime when it loads. The
 * engine has no Swift metadata, so it answers those two calls itself: linked with the static
 * Swift runtime (`make build`), then none of the runtime's 5.7 MB is pulled into the binary,
 * which the engine never runs. */
void swift_addNewDSOImage(const void *sections) { (void)sections; }
_Bool _swift_backtrace_isThunkFunction(const char *name) { (void)name; return 0; }

static int read_all(void *bytes, size_t count) {
    uint8_t *p = bytes;
    while (count > 0) {
        ssize_t n = read(WIRE, p, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        count -= (size_t)n;
    }
    return 1;
}

static int write_all(const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    while (count > 0) {
        ssize_t n = send(WIRE, p, count, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        count -= (size_t)n;
    }
    return 1;
}

static int answer(int32_t status, uint32_t count, const void *payload, uint32_t size) {
    qe_reply reply = {QE_MAGIC, status, count, size};
    return write_all(&reply, sizeof reply) && (size == 0 || write_all(payload, size));
}

/* Bounds the address space for the next request; the hard limit stays where it was. */
static void limit_memory(uint64_t bytes) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0) return;
    limit.rlim_cur = bytes == 0 || bytes > limit.rlim_max ? limit.rlim_max : (rlim_t)bytes;
    setrlimit(RLIMIT_AS, &limit);
}

static uint8_t *mapping;
static size_t mapped;

/* The request's pixels, mapped from the shared memory; NULL when they do not fit in it. */
static const uint8_t *pixels_of(const qe_request *request) {
    size_t size = (size_t)request->width * (size_t)request->height;
    if (request->shared_size != mapped) {
        if (mapping) munmap(mapping, mapped);
        mapping = NULL;
        mapped = 0;
        void *m = mmap(NULL, (size_t)request->shared_size, PROT_READ, MAP_SHARED, SHARED, 0);
        if (m == MAP_FAILED) return NULL;
        mapping = m;
        mapped = (size_t)request->shared_size;
    }
    if (request->width == 0 || request->height == 0 || request->width > INT32_MAX
        || request->height > INT32_MAX || size > mapped)
        return NULL;
    return mapping;
}

static int read_zxing(const qe_request *request) {
    if (!pixels_of(request)) return answer(ZXS_ERROR_BAD_ARGUMENT, 0, NULL, 0);
    zxs_results found = zxs_read_gray(mapping, (int)request->width, (int)request->height,
                                      (int)request->width, &request->options);
    size_t size_out = 0;
    for (size_t i = 0; i < found.count; ++i)
        size_out += sizeof(qe_wire_result) + found.items[i].byte_count + found.items[i].text_length;
    if (size_out > QE_MAX_PAYLOAD) {
        zxs_free(&found);
        return answer(ZXS_ERROR_NO_MEMORY, 0, NULL, 0);
    }
    uint8_t *payload = size_out ? malloc(size_out) : NULL;
    if (size_out && !payload) {
        zxs_free(&found);
        return answer(ZXS_ERROR_NO_MEMORY, 0, NULL, 0);
    }
    size_t at = 0;
    for (size_t i = 0; i < found.count; ++i) {
        const zxs_result *r = &found.items[i];
        qe_wire_result w;
        memset(&w, 0, sizeof w);
        w.format = r->format;
        w.byte_count = (uint32_t)r->byte_count;
        w.text_length = (uint32_t)r->text_length;
        w.has_text = r->text != NULL;
        w.has_eci = r->has_eci;
        memcpy(w.corners, r->corners, sizeof w.corners);
        memcpy(w.ec_level, r->ec_level, sizeof w.ec_level);
        w.orientation = r->orientation;
        w.is_mirrored = r->is_mirrored;
        w.sequence_index = r->sequence_index;
        w.sequence_size = r->sequence_size;
        w.sequence_parity = r->sequence_parity;
        memcpy(payload + at, &w, sizeof w);
        at += sizeof w;
        if (r->byte_count) memcpy(payload + at, r->bytes, r->byte_count);
        at += r->byte_count;
        if (r->text_length) memcpy(payload + at, r->text, r->text_length);
        at += r->text_length;
    }
    int sent = answer(found.error, (uint32_t)found.count, payload, (uint32_t)size_out);
    free(payload);
    zxs_free(&found);
    return sent;
}

static int start_tesseract(const qe_request *request) {
    uint32_t a = request->string_lengths[0], b = request->string_lengths[1];
    if (a == 0 || b == 0 || a > QE_MAX_STRING || b > QE_MAX_STRING) return 0;
    char strings[2 * QE_MAX_STRING];
    if (!read_all(strings, (size_t)a + b)) return 0;
    if (strings[a - 1] != '\0' || strings[a + b - 1] != '\0') return 0;
    const uint8_t *sample = pixels_of(request);
    int32_t status = -1;
    if (sample && qrseal_library_load(QRSEAL_LIBRARY_TESSERACT) == 0) {
        TessBaseAPI *handle = TessBaseAPICreate();
        if (handle) {
            TessBaseAPISetVariable(handle, "debug_file", "/dev/null");
            status = qrseal_tesseract_start(handle, strings, strings + a) == 0 ? 0 : -1;
            if (status == 0) {
                /* Words read with every part of the data: the character set, the recoder,
                 * the dictionaries. */
                TessBaseAPISetImage(handle, sample, (int)request->width, (int)request->height, 1,
                                    (int)request->width);
                if (TessBaseAPIRecognize(handle, NULL) != 0) status = -1;
                char *text = TessBaseAPIGetUTF8Text(handle);
                if (text) TessDeleteText(text);
            }
            TessBaseAPIEnd(handle);
            TessBaseAPIDelete(handle);
        }
    }
    return answer(status, 0, NULL, 0);
}

/* The file of the libZXing this process loaded, from /proc/self/maps. */
static int describe(void) {
    char line[4096], found[4096] = "";
    FILE *maps = fopen("/proc/self/maps", "r");
    while (maps && fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path || !strstr(path, "/libZXing.so")) continue;
        path[strcspn(path, "\n")] = '\0';
        snprintf(found, sizeof found, "%s", path);
        break;
    }
    if (maps) fclose(maps);
    return answer(0, 0, found, (uint32_t)strlen(found));
}

int main(void) {
    /* Never a core file: an abort here is expected on hostile input, and is reported by the
     * caller. No PR_SET_PDEATHSIG: it follows the thread that started the helper, and
     * threads of a dispatch pool come and go while their process lives on; the helper ends
     * instead when the caller's end of the socket closes, which its death does too. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    prctl(PR_SET_DUMPABLE, 0);
    /* Whatever else the caller had open and did not mark close-on-exec. */
    if (close_range(SHARED + 1, ~0U, 0) != 0)
        for (int fd = SHARED + 1; fd < 1024; ++fd) close(fd);
    qe_request request;
    while (read_all(&request, sizeof request)) {
        if (request.magic != QE_MAGIC) return 2;
        limit_memory(request.memory_limit);
        int ok = 0;
        switch (request.kind) {
        case QE_REQUEST_READ_ZXING: ok = read_zxing(&request); break;
        case QE_REQUEST_START_TESSERACT: ok = start_tesseract(&request); break;
        case QE_REQUEST_DESCRIBE: ok = describe(); break;
        default: ok = 0; break;
        }
        if (!ok) return 2;
    }
    return 0;
}
