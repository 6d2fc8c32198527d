#include "signet_secret_shims.h"

const SecretSchema *signet_secret_schema(void) {
    static const SecretSchema schema = {
        "dev.signet.TokenStorage", SECRET_SCHEMA_NONE,
        {
            { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "key", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        },
        0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}

GHashTable *signet_secret_attributes(const char *service, const char *key) {
    GHashTable *table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert(table, g_strdup("service"), g_strdup(service));
    g_hash_table_insert(table, g_strdup("key"), g_strdup(key));
    return table;
}
