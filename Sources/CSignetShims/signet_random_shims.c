#include "signet_random_shims.h"
#include <errno.h>
#include <string.h>
#include <sys/random.h>

enum { signet_random_buffer_size = 512, signet_random_most = 64 };

static _Thread_local unsigned char buffer[signet_random_buffer_size];
/// Unused bytes at the end of `buffer`.
static _Thread_local size_t available = 0;

int signet_buffered_random(void *out, size_t count) {
    if (count > signet_random_most) return -1;
    if (available < count) {
        size_t filled = 0;
        while (filled < sizeof buffer) {
            ssize_t got = getrandom(buffer + filled, sizeof buffer - filled, 0);
            if (got < 0) {
                if (errno == EINTR) continue;
                available = 0;
                return -1;
            }
            filled += (size_t)got;
        }
        available = sizeof buffer;
    }
    unsigned char *next = buffer + (sizeof buffer - available);
    memcpy(out, next, count);
    memset(next, 0, count);   /* a byte handed out is not handed out again */
    available -= count;
    return 0;
}
