#pragma once
#include <stddef.h>
#include <stdint.h>

/// Results of `signet_outbound_exchange` (0 is success).
enum {
    SIGNET_OUTBOUND_OK = 0,
    SIGNET_OUTBOUND_RESOLVE = -1,      // the host name did not resolve
    SIGNET_OUTBOUND_CONNECT = -2,      // no address accepted the connection
    SIGNET_OUTBOUND_TLS = -3,          // the TLS handshake failed (not the certificate)
    SIGNET_OUTBOUND_CERTIFICATE = -4,  // the certificate is untrusted or names another host
    SIGNET_OUTBOUND_IO = -5,           // the connection failed while sending or receiving
    SIGNET_OUTBOUND_TIMEOUT = -6,      // the deadline passed
    SIGNET_OUTBOUND_TOO_LARGE = -7,    // the response grew past `max_bytes`
    SIGNET_OUTBOUND_NO_MEMORY = -8,
    SIGNET_OUTBOUND_PIN = -9,          // no certificate in the verified chain has a pinned key
};

/// One HTTP/1.1 exchange on a new connection, blocking the calling thread until the response is
/// complete, the peer closes, or `timeout_seconds` (for everything: resolve, connect, TLS, send,
/// receive) runs out. Sockets are non-blocking and every wait is a `poll` bounded by the
/// deadline, so a silent peer costs no CPU.
///
/// `use_tls`: TLS 1.2+ with certificate verification against `ca_file` (PEM) or, when NULL, the
/// system's trust store, and the host name (or IP address) checked against the certificate; SNI
/// is sent for names. `request` is the complete request (the caller adds `Connection: close`).
/// The raw response (status line, headers, body) is returned in `*response` (free with
/// `signet_outbound_free`). Reading stops early once `signet_outbound_response_length` finds the
/// response whole. SIGPIPE is blocked on the calling thread while it runs.
///
/// `pins` (`pin_count` SHA-256 digests of 32 bytes, may be 0): when given, after the normal
/// verification at least one certificate of the verified chain must have a SubjectPublicKeyInfo
/// whose SHA-256 is pinned (RFC 7469's pin-sha256), else `SIGNET_OUTBOUND_PIN`.
int signet_outbound_exchange(const char *host, const char *port, int use_tls, const char *ca_file,
                             const uint8_t *pins, size_t pin_count,
                             const uint8_t *request, size_t request_length, double timeout_seconds,
                             size_t max_bytes, uint8_t **response, size_t *response_length);

/// The length of the whole response at the start of `buffer` (after any 1xx responses), as its
/// headers frame it: through the Content-Length body, the chunked body's trailer section, or the
/// headers of a 204 or 304. 0 while more is needed, or when only the end of the stream can end it
/// (no framing, or framing that is not plain). `signet_outbound_exchange` stops reading there.
size_t signet_outbound_response_length(const uint8_t *buffer, size_t length);

/// Frees a response buffer.
void signet_outbound_free(uint8_t *buffer);
