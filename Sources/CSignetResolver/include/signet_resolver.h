#pragma once
#include <stddef.h>

/// What a TXT query came to.
enum signet_txt_status {
    SIGNET_TXT_FOUND = 0,      ///< the name has TXT records (possibly none that matter)
    SIGNET_TXT_NO_RECORD = 1,  ///< NXDOMAIN or no TXT data at the name
    SIGNET_TXT_FAILED = 2,     ///< the server did not answer, refused, or the answer was malformed
    SIGNET_TXT_TOO_LONG = 3,   ///< the records do not fit the output buffer
};

/// Asks for the TXT records of `name` (class IN) with glibc's res_nquery, through the system's
/// resolver configuration, or, when `server_ipv4` is not NULL, only through that IPv4 server at
/// `port` (UDP, falling back to TCP for a truncated answer). Each record's character-strings are
/// joined (RFC 7208 §3.3) and written to `out` as a 2-byte big-endian length and the bytes, one
/// after another; `*out_length` is the total. Bounded: `timeout_seconds` per try, two tries.
/// Safe to call from many threads at once (its own res_state).
int signet_txt_query(const char *name, const char *server_ipv4, int port, int timeout_seconds,
                     unsigned char *out, size_t out_capacity, size_t *out_length);

/// Reads the TXT records of a DNS answer message (`answer`, `length` bytes, as `res_nquery`
/// returns it) into `out` as `signet_txt_query` does: the answer section's TXT records of class IN,
/// each a 2-byte big-endian length and its joined character-strings. FOUND, NO_RECORD (no TXT
/// record in the answer), FAILED (malformed), or TOO_LONG; `*out_length` is 0 unless FOUND.
int signet_txt_read_answer(const unsigned char *answer, size_t length, unsigned char *out, size_t out_capacity,
                           size_t *out_length);
