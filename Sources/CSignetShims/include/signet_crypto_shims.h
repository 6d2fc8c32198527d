#pragma once
#include <openssl/evp.h>

/// OPENSSL_free is a macro; Swift cannot call it.
void signet_openssl_free(void *p);
/// EVP_PKEY_PUBLIC_KEY is a compound macro.
int signet_evp_pkey_public_key_selection(void);
