#define _GNU_SOURCE
#include "signet_outbound.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

// MARK: deadline

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/// Waits until `fd` is ready for `events` or the deadline passes: 1 ready, 0 timeout, -1 error.
static int wait_for(int fd, short events, double deadline) {
    for (;;) {
        double left = deadline - now_seconds();
        if (left <= 0) return 0;
        struct pollfd p = { .fd = fd, .events = events, .revents = 0 };
        int ms = left > 2e6 ? 2000000000 : (int)(left * 1000.0) + 1;
        int r = poll(&p, 1, ms);
        if (r > 0) return 1;
        if (r == 0) continue;  // re-check the deadline
        if (errno == EINTR) continue;
        return -1;
    }
}

// MARK: TLS contexts

static SSL_CTX *system_context = NULL;
static pthread_once_t system_context_once = PTHREAD_ONCE_INIT;

static SSL_CTX *make_context(const char *ca_file) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (ctx == NULL) return NULL;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    // A peer closing without close_notify is a plain end of stream; the HTTP layer checks that
    // Content-Length and chunked bodies are complete.
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION);
    int loaded = ca_file != NULL ? SSL_CTX_load_verify_locations(ctx, ca_file, NULL) : SSL_CTX_set_default_verify_paths(ctx);
    if (loaded != 1) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

static void make_system_context(void) { system_context = make_context(NULL); }

// MARK: a connection

typedef struct {
    int fd;
    SSL *ssl;
    double deadline;
} connection;

static int connect_any(const char *host, const char *port, double deadline, int *fd_out) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_ADDRCONFIG;
    struct addrinfo *list = NULL;
    if (getaddrinfo(host, port, &hints, &list) != 0 || list == NULL) return SIGNET_OUTBOUND_RESOLVE;
    int result = SIGNET_OUTBOUND_CONNECT;
    for (struct addrinfo *a = list; a != NULL; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) continue;
        int r = connect(fd, a->ai_addr, a->ai_addrlen);
        if (r != 0 && errno == EINPROGRESS) {
            int ready = wait_for(fd, POLLOUT, deadline);
            if (ready == 0) {
                close(fd);
                result = SIGNET_OUTBOUND_TIMEOUT;
                break;
            }
            int error = 0;
            socklen_t length = sizeof error;
            r = (ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) ? 0 : -1;
        }
        if (r == 0) {
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            *fd_out = fd;
            result = SIGNET_OUTBOUND_OK;
            break;
        }
        close(fd);
    }
    freeaddrinfo(list);
    return result;
}

/// Runs an SSL call until it completes, waiting on the socket as OpenSSL asks.
#define SSL_RETRY(c, call, out)                                                                   \
    for (;;) {                                                                                   \
        ERR_clear_error();                                                                       \
        int _r = (call);                                                                         \
        if (_r > 0) { (out) = _r; break; }                                                       \
        int _e = SSL_get_error((c)->ssl, _r);                                                    \
        short _events = _e == SSL_ERROR_WANT_READ ? POLLIN : _e == SSL_ERROR_WANT_WRITE ? POLLOUT : 0; \
        if (_events == 0) { (out) = _e == SSL_ERROR_ZERO_RETURN ? 0 : -1; break; }               \
        int _w = wait_for((c)->fd, _events, (c)->deadline);                                      \
        if (_w == 0) { (out) = -2; break; }                                                      \
        if (_w < 0) { (out) = -1; break; }                                                       \
    }

static int tls_start(connection *c, const char *host, const char *ca_file) {
    SSL_CTX *ctx;
    if (ca_file == NULL) {
        pthread_once(&system_context_once, make_system_context);
        ctx = system_context;
        if (ctx != NULL) SSL_CTX_up_ref(ctx);
    } else {
        ctx = make_context(ca_file);
    }
    if (ctx == NULL) return SIGNET_OUTBOUND_TLS;
    c->ssl = SSL_new(ctx);
    SSL_CTX_free(ctx);  // the SSL keeps its own reference
    if (c->ssl == NULL) return SIGNET_OUTBOUND_TLS;
    unsigned char address[16];
    int is_ip = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
    if (is_ip) {
        if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl), host) != 1) return SIGNET_OUTBOUND_TLS;
    } else {
        if (SSL_set_tlsext_host_name(c->ssl, host) != 1 || SSL_set1_host(c->ssl, host) != 1) return SIGNET_OUTBOUND_TLS;
        SSL_set_hostflags(c->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    }
    if (SSL_set_fd(c->ssl, c->fd) != 1) return SIGNET_OUTBOUND_TLS;
    int result = 0;
    SSL_RETRY(c, SSL_connect(c->ssl), result);
    if (result == -2) return SIGNET_OUTBOUND_TIMEOUT;
    if (result <= 0) {
        return SSL_get_verify_result(c->ssl) != X509_V_OK ? SIGNET_OUTBOUND_CERTIFICATE : SIGNET_OUTBOUND_TLS;
    }
    return SSL_get_verify_result(c->ssl) == X509_V_OK ? SIGNET_OUTBOUND_OK : SIGNET_OUTBOUND_CERTIFICATE;
}

/// Whether a certificate of the verified chain has a pinned key (SHA-256 of its SPKI DER).
static int chain_matches_pins(SSL *ssl, const uint8_t *pins, size_t pin_count) {
    STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
    if (chain == NULL) return 0;
    for (int i = 0; i < sk_X509_num(chain); i++) {
        X509_PUBKEY *key = X509_get_X509_PUBKEY(sk_X509_value(chain, i));
        unsigned char *der = NULL;
        int length = key != NULL ? i2d_X509_PUBKEY(key, &der) : -1;
        if (length <= 0) continue;
        unsigned char digest[32];
        unsigned int digest_length = 0;
        int ok = EVP_Digest(der, (size_t)length, digest, &digest_length, EVP_sha256(), NULL);
        OPENSSL_free(der);
        if (ok != 1 || digest_length != 32) continue;
        for (size_t p = 0; p < pin_count; p++) {
            if (CRYPTO_memcmp(digest, pins + 32 * p, 32) == 0) return 1;
        }
    }
    return 0;
}

static int send_all(connection *c, const uint8_t *bytes, size_t length) {
    size_t sent = 0;
    while (sent < length) {
        size_t chunk = length - sent > (1 << 20) ? (1 << 20) : length - sent;
        if (c->ssl != NULL) {
            int n = 0;
            SSL_RETRY(c, SSL_write(c->ssl, bytes + sent, (int)chunk), n);
            if (n == -2) return SIGNET_OUTBOUND_TIMEOUT;
            if (n <= 0) return SIGNET_OUTBOUND_IO;
            sent += (size_t)n;
        } else {
            ssize_t n = send(c->fd, bytes + sent, chunk, MSG_NOSIGNAL);
            if (n > 0) { sent += (size_t)n; continue; }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                int w = wait_for(c->fd, POLLOUT, c->deadline);
                if (w == 0) return SIGNET_OUTBOUND_TIMEOUT;
                if (w < 0) return SIGNET_OUTBOUND_IO;
                continue;
            }
            return SIGNET_OUTBOUND_IO;
        }
    }
    return SIGNET_OUTBOUND_OK;
}

/// Receives up to `capacity` bytes: the count, 0 at end of stream, or a negative result code.
static long receive_some(connection *c, uint8_t *into, size_t capacity) {
    if (c->ssl != NULL) {
        int n = 0;
        SSL_RETRY(c, SSL_read(c->ssl, into, (int)capacity), n);
        if (n == -2) return SIGNET_OUTBOUND_TIMEOUT;
        if (n < 0) return SIGNET_OUTBOUND_IO;
        return n;
    }
    for (;;) {
        ssize_t n = recv(c->fd, into, capacity, 0);
        if (n >= 0) return (long)n;
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            int w = wait_for(c->fd, POLLIN, c->deadline);
            if (w == 0) return SIGNET_OUTBOUND_TIMEOUT;
            if (w < 0) return SIGNET_OUTBOUND_IO;
            continue;
        }
        return SIGNET_OUTBOUND_IO;
    }
}

// MARK: knowing when the response is complete

static const uint8_t *find(const uint8_t *haystack, size_t length, const char *needle) {
    size_t n = strlen(needle);
    if (length < n) return NULL;
    for (size_t i = 0; i + n <= length; i++) {
        if (memcmp(haystack + i, needle, n) == 0) return haystack + i;
    }
    return NULL;
}

static int is_blank(uint8_t c) { return c == ' ' || c == '\t'; }

/// The hex value of an ASCII hex digit, or -1.
static int hex_value(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// A header value that is only decimal digits between blanks, or -1 (also past `limit`).
static long decimal_value(const uint8_t *text, size_t length, long limit) {
    size_t i = 0;
    while (i < length && is_blank(text[i])) i++;
    size_t first = i;
    long value = 0;
    for (; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
        value = value * 10 + (text[i] - '0');
        if (value > limit) return -1;
    }
    if (i == first) return -1;
    while (i < length && is_blank(text[i])) i++;
    return i == length ? value : -1;
}

static int contains_ignoring_case(const uint8_t *text, size_t length, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= length; i++) {
        if (strncasecmp((const char *)text + i, needle, n) == 0) return 1;
    }
    return 0;
}

/// The end of a chunked body that starts at `at` (RFC 9112 §7.1: chunks, the last chunk, the
/// trailer section and its empty line), or 0 while more is needed or a chunk line is not plain
/// hex (then only the end of the stream ends the response, and the parser reports it).
static size_t chunked_end(const uint8_t *buffer, size_t length, size_t at) {
    for (;;) {
        size_t i = at;
        size_t size = 0;
        for (; i < length && hex_value(buffer[i]) >= 0; i++) {
            if (size > ((size_t)1 << 40)) return 0;
            size = size * 16 + (size_t)hex_value(buffer[i]);
        }
        if (i == at) return 0;
        while (i < length && is_blank(buffer[i])) i++;
        if (i < length && buffer[i] != ';' && buffer[i] != '\r') return 0;
        const uint8_t *line_end = find(buffer + i, length - i, "\r\n");
        if (line_end == NULL) return 0;
        at = (size_t)(line_end - buffer) + 2;
        if (size == 0) {
            for (;;) {  // trailer fields up to the empty line
                const uint8_t *field_end = find(buffer + at, length - at, "\r\n");
                if (field_end == NULL) return 0;
                if (field_end == buffer + at) return at + 2;
                at = (size_t)(field_end - buffer) + 2;
            }
        }
        if (length - at < size + 2 || buffer[at + size] != '\r' || buffer[at + size + 1] != '\n') return 0;
        at += size + 2;
    }
}

size_t signet_outbound_response_length(const uint8_t *buffer, size_t length) {
    size_t start = 0;
    for (;;) {
        const uint8_t *end = find(buffer + start, length - start, "\r\n\r\n");
        if (end == NULL) return 0;
        size_t header_length = (size_t)(end - buffer) + 4;
        // The status line: "HTTP/1.x", a space, three digits, then a space or the line's end.
        const uint8_t *status_end = find(buffer + start, header_length - start, "\r\n");
        const uint8_t *space = status_end == NULL ? NULL : memchr(buffer + start, ' ', (size_t)(status_end - buffer) - start);
        if (space == NULL || (size_t)(space - buffer) - start < 7 || memcmp(buffer + start, "HTTP/1.", 7) != 0) return 0;
        if (status_end - space < 4 || (status_end - space > 4 && space[4] != ' ')) return 0;
        for (int d = 1; d <= 3; d++) {
            if (space[d] < '0' || space[d] > '9') return 0;
        }
        if (space[1] == '1') {  // 1xx: an interim response, the final one follows
            start = header_length;
            continue;
        }
        if (memcmp(space + 1, "204", 3) == 0 || memcmp(space + 1, "304", 3) == 0) return header_length;
        long content_length = -1;
        int chunked = 0;
        const uint8_t *line = status_end + 2;
        while (line < end + 2) {
            const uint8_t *next = find(line, (size_t)(end + 4 - line), "\r\n");
            if (next == NULL) break;
            size_t n = (size_t)(next - line);
            if (n >= 15 && strncasecmp((const char *)line, "content-length:", 15) == 0) {
                content_length = decimal_value(line + 15, n - 15, 1L << 40);
            } else if (n >= 18 && strncasecmp((const char *)line, "transfer-encoding:", 18) == 0) {
                if (contains_ignoring_case(line + 18, n - 18, "chunked")) chunked = 1;
            }
            line = next + 2;
        }
        if (chunked) return chunked_end(buffer, length, header_length);
        if (content_length >= 0 && length - header_length >= (size_t)content_length) return header_length + (size_t)content_length;
        return 0;
    }
}

// MARK: the exchange

int signet_outbound_exchange(const char *host, const char *port, int use_tls, const char *ca_file,
                             const uint8_t *pins, size_t pin_count, const uint8_t *request, size_t request_length, double timeout_seconds,
                             size_t max_bytes, uint8_t **response, size_t *response_length) {
    *response = NULL;
    *response_length = 0;
    sigset_t block, previous;
    sigemptyset(&block);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &previous);

    connection c = { .fd = -1, .ssl = NULL, .deadline = now_seconds() + timeout_seconds };
    uint8_t *buffer = NULL;
    size_t length = 0, capacity = 0;
    int result = connect_any(host, port, c.deadline, &c.fd);
    if (result == SIGNET_OUTBOUND_OK && use_tls) result = tls_start(&c, host, ca_file);
    if (result == SIGNET_OUTBOUND_OK && use_tls && pin_count > 0 && !chain_matches_pins(c.ssl, pins, pin_count)) {
        result = SIGNET_OUTBOUND_PIN;
    }
    if (result == SIGNET_OUTBOUND_OK) result = send_all(&c, request, request_length);
    while (result == SIGNET_OUTBOUND_OK) {
        if (length == capacity) {
            if (capacity >= max_bytes) { result = SIGNET_OUTBOUND_TOO_LARGE; break; }
            size_t grown = capacity == 0 ? 16384 : capacity * 2;
            if (grown > max_bytes) grown = max_bytes;
            uint8_t *larger = realloc(buffer, grown);
            if (larger == NULL) { result = SIGNET_OUTBOUND_NO_MEMORY; break; }
            buffer = larger;
            capacity = grown;
        }
        long n = receive_some(&c, buffer + length, capacity - length);
        if (n < 0) { result = (int)n; break; }
        if (n == 0) break;
        length += (size_t)n;
        if (signet_outbound_response_length(buffer, length) > 0) break;
    }
    if (c.ssl != NULL) SSL_free(c.ssl);
    if (c.fd >= 0) close(c.fd);
    // Drop a SIGPIPE raised while blocked, then restore the mask.
    struct timespec zero = { 0, 0 };
    while (sigtimedwait(&block, NULL, &zero) > 0) {}
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (result != SIGNET_OUTBOUND_OK) {
        free(buffer);
        return result;
    }
    *response = buffer;
    *response_length = length;
    return SIGNET_OUTBOUND_OK;
}

void signet_outbound_free(uint8_t *buffer) { free(buffer); }
