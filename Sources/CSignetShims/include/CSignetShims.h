// Fixed-argument wrappers for what Swift cannot call (variadic C functions, function-like macros) or
// cannot say (thread-local storage).
// Each library's wrappers live in their own header and .c file so they can change independently.
#pragma once
#include "signet_crypto_shims.h"
#include "signet_mhd_shims.h"
#include "signet_random_shims.h"
#include "signet_sqlite_shims.h"
