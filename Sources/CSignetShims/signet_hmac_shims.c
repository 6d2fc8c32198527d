/* HMAC-SHA-256 on OpenSSL's low-level SHA-256 functions. They are deprecated in OpenSSL 3 in
 * favour of EVP, whose contexts are heap objects: copying a prepared EVP_MD_CTX allocates the
 * provider's state on every copy. A SHA256_CTX is a plain struct that can be copied by value.
 * The suppression comes before any OpenSSL header, so this file alone uses them. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <string.h>
#include "signet_crypto_shims.h"

_Static_assert(sizeof(SHA256_CTX) <= sizeof(signet_sha256_state), "SHA256_CTX fits the state");

int signet_hmac_sha256_prepare(signet_hmac_sha256_key *prepared, const uint8_t *key, size_t key_length) {
    unsigned char block[SHA256_CBLOCK] = {0};
    unsigned char pad[SHA256_CBLOCK];
    SHA256_CTX ctx;
    if (key_length > SHA256_CBLOCK) {
        SHA256(key, key_length, block);
    } else if (key_length > 0) {
        memcpy(block, key, key_length);
    }
    for (size_t i = 0; i < SHA256_CBLOCK; i++) pad[i] = block[i] ^ 0x36;
    if (SHA256_Init(&ctx) != 1 || SHA256_Update(&ctx, pad, sizeof pad) != 1) return 0;
    memcpy(prepared->inner.bytes, &ctx, sizeof ctx);
    for (size_t i = 0; i < SHA256_CBLOCK; i++) pad[i] = block[i] ^ 0x5c;
    if (SHA256_Init(&ctx) != 1 || SHA256_Update(&ctx, pad, sizeof pad) != 1) return 0;
    memcpy(prepared->outer.bytes, &ctx, sizeof ctx);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(&ctx, sizeof ctx);
    return 1;
}

void signet_hmac_sha256(const signet_hmac_sha256_key *prepared, const void *message, size_t length, uint8_t out[32]) {
    SHA256_CTX ctx;
    unsigned char inner[SHA256_DIGEST_LENGTH];
    memcpy(&ctx, prepared->inner.bytes, sizeof ctx);
    SHA256_Update(&ctx, message, length);
    SHA256_Final(inner, &ctx);
    memcpy(&ctx, prepared->outer.bytes, sizeof ctx);
    SHA256_Update(&ctx, inner, sizeof inner);
    SHA256_Final(out, &ctx);
    OPENSSL_cleanse(&ctx, sizeof ctx);
}
