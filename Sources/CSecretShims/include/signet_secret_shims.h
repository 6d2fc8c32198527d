// What Swift cannot express for libsecret: the static schema (a struct with a fixed array of
// attribute definitions) and a GHashTable of attributes (g_str_hash / g_str_equal / g_free are
// passed as function pointers, and glib defines some of them as macros too).
#pragma once
#include <libsecret/secret.h>

/// The schema of Signet's items: `service` (the app's namespace) and `key` (the storage key).
const SecretSchema *signet_secret_schema(void);

/// A new attribute table {service, key} holding copies of both strings (freed with the table).
/// Release it with g_hash_table_unref.
GHashTable *signet_secret_attributes(const char *service, const char *key);
