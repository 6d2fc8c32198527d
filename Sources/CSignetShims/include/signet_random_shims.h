#pragma once
#include <stddef.h>

/// Fills `out` with `count` bytes (at most 64) of the kernel's random output (`getrandom`), drawn
/// through a 512-byte buffer per thread: one system call per 512 bytes instead of one per call.
/// Returns 0, or -1 if `getrandom` failed (then `out` is untouched).
///
/// For identifiers that must not repeat but are no secret (request ids): the buffered bytes sit in
/// the thread's memory until used, and a process forked without exec would repeat its parent's.
/// Secrets come from OpenSSL's RAND_bytes.
int signet_buffered_random(void *out, size_t count);
