#pragma once
#include <stddef.h>

/// The common-password list (data/common-passwords.txt): the passwords of 8 to 64 characters
/// among the 100,000 most used in leaked credentials (ignis-sec/Pwdb-Public, MIT licence, in
/// data/LICENSE-common-passwords), one per line, sorted by byte value, embedded in the binary.
const unsigned char *signet_common_passwords(size_t *length);
