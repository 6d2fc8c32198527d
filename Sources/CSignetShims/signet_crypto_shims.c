#include "signet_crypto_shims.h"
#include <openssl/crypto.h>

void signet_openssl_free(void *p) { OPENSSL_free(p); }
int signet_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
