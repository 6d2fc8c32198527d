#pragma once
#include <openssl/evp.h>

/// OPENSSL_free is a macro; Swift cannot call it.
void signet_openssl_free(void *p);
/// EVP_PKEY_PUBLIC_KEY is a compound macro.
int signet_evp_pkey_public_key_selection(void);

#include <stddef.h>
#include <stdint.h>

/// An HMAC-SHA-256 key prepared once (RFC 2104): the SHA-256 states after the padded key blocks
/// (key ^ ipad, key ^ opad). The states are OpenSSL's SHA256_CTX, held here as bytes so that this
/// header (which Swift imports) declares nothing OpenSSL 3 deprecates; signet_hmac_sha256 copies
/// them onto its stack, so one prepared key serves any number of threads and no call allocates.
typedef struct { _Alignas(16) unsigned char bytes[256]; } signet_sha256_state;
typedef struct { signet_sha256_state inner, outer; } signet_hmac_sha256_key;

/// Prepares `key` (any length: one longer than a block is hashed first). Returns 1, or 0 if the
/// state does not fit (never with OpenSSL's 112-byte SHA256_CTX).
int signet_hmac_sha256_prepare(signet_hmac_sha256_key *prepared, const uint8_t *key, size_t key_length);
/// HMAC-SHA-256 of `message` under a prepared key, into `out` (32 bytes).
void signet_hmac_sha256(const signet_hmac_sha256_key *prepared, const void *message, size_t length, uint8_t out[32]);
