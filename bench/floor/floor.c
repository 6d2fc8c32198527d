/*
 * bench/floor/floor.c: the floor under issue 16's CPU targets, measured instead of estimated.
 *
 * A server in plain C on the libraries Signet itself runs on (libmicrohttpd with the same thread
 * pool and poll mode, SQLite on Signet's own database file and schema, OpenSSL), doing only what
 * no implementation of the operation can skip, with Signet's own SQL:
 *
 *   POST /token      a refresh rotation: read the form's refresh_token ("GRANT.SECRET"), HMAC it,
 *                    then, in a group commit over one writer connection (one BEGIN IMMEDIATE ...
 *                    COMMIT for whatever queued during the previous sync, a savepoint each, as
 *                    SQLiteWriter does), Signet's rotation read (token, grant, profile, user's
 *                    disabled flag), its checks, the UPDATE of the presented token and the INSERT
 *                    of the successor; then an ES256 access token, with the family's whole scope
 *                    (no `scope` in the form) an RS256 ID token too, and the JSON answer.
 *   GET  /userinfo   the bearer token found in a memory of verified tokens (as Signet's verifier
 *                    keeps one; ES256 verification on a miss), Signet's one-statement read of the
 *                    user if the grant is active, in a read transaction on the thread's own
 *                    connection, and the JSON answer.
 *   GET  /healthz    a fixed answer: the HTTP floor.
 *   POST /reference/start   (set-up, not measured) a new grant family and its first tokens.
 *
 * What it leaves out that Signet does: client authentication and lookup, the rotation's reuse,
 * grace and narrowing rules beyond the few checks below, audit, metrics, access logs, request
 * ids, error bodies, throttling. So it is the floor of this design (these libraries, this schema,
 * the same durability) on the machine it runs on: Signet cannot cost less, and the difference is
 * what Signet's own code costs. One difference is not a saving: its WAL is checkpointed by
 * SQLite's own auto-checkpoint at commit (every 1,000 pages), Signet's by a background thread.
 *
 *   floor DB PORT full|normal THREADS
 *
 * DB is a Signet database (`signet` created and migrated it; the user bench@example.com exists).
 * Listens on 127.0.0.1:PORT only. bench/floor.sh builds it and measures it next to Signet.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static const char *db_path;
static int sync_full;
static EVP_PKEY *signing_key, *id_token_key;
static unsigned char hmac_key[32];
static char user_id[128];
static long long profile_ref;

static void die(const char *what) { fprintf(stderr, "floor: %s\n", what); exit(1); }

static long long now_us(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static size_t b64url(const unsigned char *in, size_t n, char *out) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = a[v >> 18]; out[o++] = a[(v >> 12) & 63]; out[o++] = a[(v >> 6) & 63]; out[o++] = a[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = a[v >> 18]; out[o++] = a[(v >> 12) & 63];
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = a[v >> 18]; out[o++] = a[(v >> 12) & 63]; out[o++] = a[(v >> 6) & 63];
    }
    out[o] = 0;
    return o;
}

static int b64url_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

/* Decodes n characters; returns the byte count, or -1 on a character outside the alphabet. */
static long b64url_decode(const char *in, size_t n, unsigned char *out, size_t cap) {
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64url_value(in[i]);
        if (v < 0) return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o == cap) return -1;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return (long)o;
}

static void token_hash(const char *secret, size_t n, unsigned char out[32]) {
    unsigned int len = 32;
    HMAC(EVP_sha256(), hmac_key, sizeof hmac_key, (const unsigned char *)secret, n, out, &len);
}

/* A JWS of `payload` into `out` (header.payload.signature): ES256 with `signing_key`, or RS256
 * (PKCS #1 v1.5) with `id_token_key`. Returns its length, 0 on failure. */
static size_t sign_jws(int rs256, const char *payload, char *out, size_t cap) {
    const char *header = rs256 ? "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"floor-rsa\"}"
                               : "{\"alg\":\"ES256\",\"typ\":\"at+jwt\",\"kid\":\"floor\"}";
    size_t hlen = strlen(header), plen = strlen(payload);
    if ((hlen + plen) * 4 / 3 + 400 > cap) return 0;
    size_t o = b64url((const unsigned char *)header, hlen, out);
    out[o++] = '.';
    o += b64url((const unsigned char *)payload, plen, out + o);
    unsigned char sig[256];
    size_t slen = sizeof sig;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx && EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, rs256 ? id_token_key : signing_key) == 1 &&
             EVP_DigestSign(ctx, sig, &slen, (const unsigned char *)out, o) == 1;
    EVP_MD_CTX_free(ctx);
    if (!ok) return 0;
    out[o++] = '.';
    if (rs256) return o + b64url(sig, slen, out + o);
    /* ES256: the DER signature as r || s (RFC 7518 §3.4). */
    const unsigned char *p = sig;
    ECDSA_SIG *ecdsa = d2i_ECDSA_SIG(NULL, &p, (long)slen);
    if (!ecdsa) return 0;
    unsigned char raw[64];
    BN_bn2binpad(ECDSA_SIG_get0_r(ecdsa), raw, 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(ecdsa), raw + 32, 32);
    ECDSA_SIG_free(ecdsa);
    return o + b64url(raw, 64, out + o);
}

static int verify_es256(const char *jws, size_t n) {
    const char *dot = memrchr(jws, '.', n);
    if (!dot) return 0;
    unsigned char raw[64];
    if (b64url_decode(dot + 1, n - (size_t)(dot + 1 - jws), raw, sizeof raw) != 64) return 0;
    ECDSA_SIG *sig = ECDSA_SIG_new();
    ECDSA_SIG_set0(sig, BN_bin2bn(raw, 32, NULL), BN_bin2bn(raw + 32, 32, NULL));
    unsigned char *der = NULL;
    int dlen = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = dlen > 0 && ctx && EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, signing_key) == 1 &&
             EVP_DigestVerify(ctx, der, (size_t)dlen, (const unsigned char *)jws, (size_t)(dot - jws)) == 1;
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return ok;
}

static sqlite3 *open_db(int writer) {
    sqlite3 *db;
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) die("open");
    sqlite3_busy_timeout(db, 10000);
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (writer) {
        sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        sqlite3_exec(db, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
    }
    return db;
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) die(sqlite3_errmsg(db));
    return s;
}

/* Signet's statements (Sources/SignetSQL/SQLRefreshTokenStore.swift, SQLUserStore.swift). */
static const char rotation_sql[] =
    "SELECT t.token_hash, g.grant_id, t.parent_hash, COALESCE(t.scope, p.scope), t.created_at, t.expires_at,"
    " t.rotated_at, t.successor_hash, g.grant_id, p.client_id, g.user_id, p.scope, g.created_at,"
    " g.absolute_expires_at, g.revoked_at, g.revoke_reason, g.session_id, g.auth_time, p.resources, p.amr,"
    " g.organization_id, (SELECT disabled_at IS NOT NULL FROM users WHERE id = g.user_id), t.grant_ref"
    " FROM refresh_tokens t JOIN grants g ON g.id = t.grant_ref JOIN grant_profiles p ON p.id = g.profile_ref"
    " WHERE g.grant_id = ?2 AND t.token_hash = ?1";
static const char mark_rotated_sql[] =
    "UPDATE refresh_tokens SET rotated_at = ?1, successor_hash = ?2"
    " WHERE grant_ref = ?3 AND token_hash = ?4 AND rotated_at IS NULL";
static const char insert_token_sql[] =
    "INSERT INTO refresh_tokens (token_hash, grant_ref, parent_hash, scope, created_at, expires_at, rotated_at,"
    " successor_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
static const char insert_grant_sql[] =
    "INSERT INTO grants (grant_id, user_id, created_at, absolute_expires_at, revoked_at, revoke_reason, session_id,"
    " auth_time, organization_id, profile_ref) VALUES (?1, ?2, ?3, ?4, NULL, NULL, NULL, ?3, NULL, ?5)";
static const char userinfo_sql[] =
    "SELECT id, email, email_verified, password_hash, name, given_name, family_name, disabled_at, created_at,"
    " updated_at FROM (SELECT 1 AS one) AS g LEFT JOIN users ON id = ?1"
    " WHERE EXISTS (SELECT 1 FROM grants WHERE grant_id = ?2 AND revoked_at IS NULL AND absolute_expires_at > ?3)";

/* ---- the writer and its group commit (as Sources/SignetSQLite/SQLiteWriter.swift) ---- */

enum { ROTATE, START };
typedef struct job {
    int kind;
    char grant_id[64];
    unsigned char hash[32], successor[32];
    long long now;
    const char *scope; /* the successor's stored scope: NULL for the family's own */
    int ok;
    int done, lead;
    pthread_cond_t wake;
    struct job *next;
} job;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static job *queue_head, *queue_tail;
static int leading;
static sqlite3 *writer;
static sqlite3_stmt *w_rotation, *w_mark, *w_insert, *w_grant, *w_begin, *w_commit, *w_rollback, *w_save, *w_release,
    *w_undo;

static int step_done(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE;
}

static const long long month_us = 30LL * 86400 * 1000000;

/* Inserts `j`'s successor token in family `grant_ref`: the child of `parent` (NULL for a family's
 * first token), its scope `j->scope` (NULL: the family's), valid for a month. */
static int insert_token(job *j, long long grant_ref, const unsigned char *parent) {
    sqlite3_bind_blob(w_insert, 1, j->successor, 32, SQLITE_STATIC);
    sqlite3_bind_int64(w_insert, 2, grant_ref);
    if (parent) sqlite3_bind_blob(w_insert, 3, parent, 32, SQLITE_STATIC);
    else sqlite3_bind_null(w_insert, 3);
    if (j->scope) sqlite3_bind_text(w_insert, 4, j->scope, -1, SQLITE_STATIC);
    else sqlite3_bind_null(w_insert, 4);
    sqlite3_bind_int64(w_insert, 5, j->now);
    sqlite3_bind_int64(w_insert, 6, j->now + month_us);
    sqlite3_bind_null(w_insert, 7);
    sqlite3_bind_null(w_insert, 8);
    return step_done(w_insert);
}

static int rotate(job *j) {
    sqlite3_bind_blob(w_rotation, 1, j->hash, 32, SQLITE_STATIC);
    sqlite3_bind_text(w_rotation, 2, j->grant_id, -1, SQLITE_STATIC);
    if (sqlite3_step(w_rotation) != SQLITE_ROW) { sqlite3_reset(w_rotation); return 0; }
    int usable = sqlite3_column_type(w_rotation, 6) == SQLITE_NULL &&      /* not rotated */
                 sqlite3_column_int64(w_rotation, 5) > j->now &&            /* not expired */
                 sqlite3_column_type(w_rotation, 14) == SQLITE_NULL &&     /* grant not revoked */
                 sqlite3_column_int64(w_rotation, 13) > j->now &&           /* grant not past its end */
                 sqlite3_column_int(w_rotation, 21) == 0;                   /* user not disabled */
    long long grant_ref = sqlite3_column_int64(w_rotation, 22);
    sqlite3_reset(w_rotation);
    if (!usable) return 0;
    sqlite3_bind_int64(w_mark, 1, j->now);
    sqlite3_bind_blob(w_mark, 2, j->successor, 32, SQLITE_STATIC);
    sqlite3_bind_int64(w_mark, 3, grant_ref);
    sqlite3_bind_blob(w_mark, 4, j->hash, 32, SQLITE_STATIC);
    if (!step_done(w_mark) || sqlite3_changes(writer) != 1) return 0;
    return insert_token(j, grant_ref, j->hash);
}

static int start_family(job *j) {
    sqlite3_bind_text(w_grant, 1, j->grant_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(w_grant, 2, user_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(w_grant, 3, j->now);
    sqlite3_bind_int64(w_grant, 4, j->now + 12 * month_us);
    sqlite3_bind_int64(w_grant, 5, profile_ref);
    return step_done(w_grant) && insert_token(j, sqlite3_last_insert_rowid(writer), NULL);
}

/* Runs `j` in the next group commit; returns once that commit is durable (or rolled back). */
static int write_job(job *j) {
    pthread_cond_init(&j->wake, NULL);
    j->done = j->lead = 0;
    j->next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (queue_tail) queue_tail->next = j; else queue_head = j;
    queue_tail = j;
    if (leading) {
        while (!j->done && !j->lead) pthread_cond_wait(&j->wake, &queue_lock);
    } else {
        leading = 1;
    }
    if (j->done) {
        pthread_mutex_unlock(&queue_lock);
        pthread_cond_destroy(&j->wake);
        return j->ok;
    }
    /* Lead one batch: everything queued now (this member included). */
    job *batch = queue_head;
    queue_head = queue_tail = NULL;
    pthread_mutex_unlock(&queue_lock);

    int committed = step_done(w_begin);
    for (job *m = batch; m && committed; m = m->next) {
        step_done(w_save);
        m->ok = m->kind == ROTATE ? rotate(m) : start_family(m);
        if (!m->ok) step_done(w_undo);
        step_done(w_release);
    }
    if (committed && !step_done(w_commit)) committed = 0;
    if (!committed) step_done(w_rollback);

    pthread_mutex_lock(&queue_lock);
    for (job *m = batch, *next; m; m = next) {
        next = m->next;
        if (!committed) m->ok = 0;
        m->done = 1;
        if (m != j) pthread_cond_signal(&m->wake);
    }
    if (queue_head) {
        queue_head->lead = 1; /* the first that queued during this commit leads the next */
        pthread_cond_signal(&queue_head->wake);
    } else {
        leading = 0;
    }
    pthread_mutex_unlock(&queue_lock);
    pthread_cond_destroy(&j->wake);
    return j->ok;
}

/* ---- the verified-token memory (as Signet's AccessTokenVerifier keeps one) ---- */

#define MEMORY_SLOTS 1024
static struct { char *token; size_t length; char sub[128]; char gid[64]; } memory[MEMORY_SLOTS];
static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned slot_of(const char *token, size_t n) {
    unsigned h = 2166136261u;
    for (size_t i = n > 32 ? n - 32 : 0; i < n; i++) h = (h ^ (unsigned char)token[i]) * 16777619u;
    return h % MEMORY_SLOTS;
}

/* Copies `"name":"value"` out of a JSON object we wrote ourselves. */
static int claim(const char *json, const char *name, char *out, size_t cap) {
    char key[32];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *p = strstr(json, key);
    if (!p) return 0;
    p += strlen(key);
    const char *end = strchr(p, '"');
    if (!end || (size_t)(end - p) >= cap) return 0;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = 0;
    return 1;
}

/* The subject and grant of a valid bearer token, from memory or by verifying it. */
static int bearer(const char *token, char sub[128], char gid[64]) {
    size_t n = strlen(token);
    unsigned slot = slot_of(token, n);
    pthread_mutex_lock(&memory_lock);
    int hit = memory[slot].token && memory[slot].length == n && memcmp(memory[slot].token, token, n) == 0;
    if (hit) { memcpy(sub, memory[slot].sub, 128); memcpy(gid, memory[slot].gid, 64); }
    pthread_mutex_unlock(&memory_lock);
    if (hit) return 1;
    if (!verify_es256(token, n)) return 0;
    const char *dot1 = memchr(token, '.', n), *dot2 = dot1 ? memchr(dot1 + 1, '.', n - (size_t)(dot1 + 1 - token)) : NULL;
    if (!dot2) return 0;
    char payload[2048];
    long plen = b64url_decode(dot1 + 1, (size_t)(dot2 - dot1 - 1), (unsigned char *)payload, sizeof payload - 1);
    if (plen < 0) return 0;
    payload[plen] = 0;
    if (!claim(payload, "sub", sub, 128) || !claim(payload, "gid", gid, 64)) return 0;
    pthread_mutex_lock(&memory_lock);
    free(memory[slot].token);
    memory[slot].token = strndup(token, n);
    memory[slot].length = n;
    memcpy(memory[slot].sub, sub, 128);
    memcpy(memory[slot].gid, gid, 64);
    pthread_mutex_unlock(&memory_lock);
    return 1;
}

/* ---- HTTP ---- */

static __thread sqlite3 *reader;
static __thread sqlite3_stmt *r_userinfo, *r_begin, *r_commit;

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *body) {
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(r, "Content-Type", "application/json");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static const char invalid_grant[] = "{\"error\":\"invalid_grant\"}";

/* "GRANT.SECRET": a new secret's hash in `j->successor`, the token itself in `out`. */
static void new_token(job *j, char *out) {
    unsigned char secret[32];
    char text[48];
    RAND_bytes(secret, sizeof secret);
    size_t n = b64url(secret, sizeof secret, text);
    token_hash(text, n, j->successor);
    sprintf(out, "%s.%s", j->grant_id, text);
}

static size_t access_token(const char *gid, const char *scope, long long now, char *out, size_t cap) {
    unsigned char jti[16];
    char jti_text[32], payload[1024];
    RAND_bytes(jti, sizeof jti);
    b64url(jti, sizeof jti, jti_text);
    long long iat = now / 1000000;
    snprintf(payload, sizeof payload,
             "{\"iss\":\"http://127.0.0.1\",\"sub\":\"%s\",\"aud\":\"bench-app\",\"client_id\":\"bench-app\","
             "\"iat\":%lld,\"exp\":%lld,\"jti\":\"%s\",\"scope\":\"%s\",\"gid\":\"%s\"}",
             user_id, iat, iat + 900, jti_text, scope, gid);
    return sign_jws(0, payload, out, cap);
}

/* The ID token of a refresh with the family's whole scope (openid): Signet's claims, RS256. */
static size_t id_token(const char *access, long long now, char *out, size_t cap) {
    unsigned char digest[32];
    char at_hash[32], payload[1024];
    SHA256((const unsigned char *)access, strlen(access), digest);
    b64url(digest, 16, at_hash);
    long long iat = now / 1000000;
    snprintf(payload, sizeof payload,
             "{\"iss\":\"http://127.0.0.1\",\"sub\":\"%s\",\"aud\":\"bench-app\",\"azp\":\"bench-app\",\"iat\":%lld,"
             "\"exp\":%lld,\"auth_time\":%lld,\"amr\":[\"pwd\"],\"acr\":\"1\",\"at_hash\":\"%s\"}",
             user_id, iat, iat + 3600, iat, at_hash);
    return sign_jws(1, payload, out, cap);
}

/* A refresh: with `scope=offline_access` (Signet's narrowing, the refresh-noid load) an access
 * token alone; without a scope (refresh-id) the family's whole scope and an RS256 ID token. */
static enum MHD_Result token_endpoint(struct MHD_Connection *c, const char *form) {
    const char *p = strstr(form, "refresh_token=");
    if (!strstr(form, "grant_type=refresh_token") || !p) return answer(c, 400, invalid_grant);
    p += strlen("refresh_token=");
    const char *end = strchr(p, '&');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    const char *dot = memchr(p, '.', n);
    int narrowed = strstr(form, "scope=offline_access") != NULL;
    const char *scope = narrowed ? "offline_access" : "openid profile email offline_access";
    job j = {.kind = ROTATE, .now = now_us(), .scope = narrowed ? "offline_access" : NULL};
    if (!dot || (size_t)(dot - p) >= sizeof j.grant_id) return answer(c, 400, invalid_grant);
    memcpy(j.grant_id, p, (size_t)(dot - p));
    token_hash(dot + 1, n - (size_t)(dot + 1 - p), j.hash);
    char successor[128], at[1024], it[1400], body[2800];
    new_token(&j, successor);
    if (!write_job(&j)) return answer(c, 400, invalid_grant);
    if (!access_token(j.grant_id, scope, j.now, at, sizeof at)) return answer(c, 500, "{}");
    if (narrowed) {
        snprintf(body, sizeof body,
                 "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":900,\"refresh_token\":\"%s\","
                 "\"scope\":\"%s\"}", at, successor, scope);
    } else {
        if (!id_token(at, j.now, it, sizeof it)) return answer(c, 500, "{}");
        snprintf(body, sizeof body,
                 "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":900,\"refresh_token\":\"%s\","
                 "\"scope\":\"%s\",\"id_token\":\"%s\"}", at, successor, scope, it);
    }
    return answer(c, 200, body);
}

static enum MHD_Result start_endpoint(struct MHD_Connection *c) {
    job j = {.kind = START, .now = now_us()};
    unsigned char id[16];
    RAND_bytes(id, sizeof id);
    b64url(id, sizeof id, j.grant_id);
    char first[128], at[1024], body[1400];
    new_token(&j, first);
    if (!write_job(&j)) return answer(c, 500, "{}");
    if (!access_token(j.grant_id, "openid profile email offline_access", j.now, at, sizeof at)) return answer(c, 500, "{}");
    snprintf(body, sizeof body, "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"refresh_token\":\"%s\"}", at, first);
    return answer(c, 200, body);
}

static void json_string(char *out, size_t cap, const char *name, const unsigned char *value) {
    size_t n = strlen(out);
    if (value) snprintf(out + n, cap - n, ",\"%s\":\"%s\"", name, value);
}

static enum MHD_Result userinfo_endpoint(struct MHD_Connection *c) {
    static const char unauthorized[] = "{\"error\":\"invalid_token\"}";
    const char *authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    char sub[128], gid[64];
    if (!authorization || strncmp(authorization, "Bearer ", 7) != 0 || !bearer(authorization + 7, sub, gid))
        return answer(c, 401, unauthorized);
    if (!reader) {
        reader = open_db(0);
        r_userinfo = prepare(reader, userinfo_sql);
        r_begin = prepare(reader, "BEGIN");
        r_commit = prepare(reader, "COMMIT");
    }
    char body[1024];
    int found = 0;
    step_done(r_begin);
    sqlite3_bind_text(r_userinfo, 1, sub, -1, SQLITE_STATIC);
    sqlite3_bind_text(r_userinfo, 2, gid, -1, SQLITE_STATIC);
    sqlite3_bind_int64(r_userinfo, 3, now_us());
    if (sqlite3_step(r_userinfo) == SQLITE_ROW && sqlite3_column_type(r_userinfo, 0) != SQLITE_NULL &&
        sqlite3_column_type(r_userinfo, 7) == SQLITE_NULL) {
        found = 1;
        snprintf(body, sizeof body, "{\"sub\":\"%s\"", sqlite3_column_text(r_userinfo, 0));
        json_string(body, sizeof body, "name", sqlite3_column_text(r_userinfo, 4));
        json_string(body, sizeof body, "given_name", sqlite3_column_text(r_userinfo, 5));
        json_string(body, sizeof body, "family_name", sqlite3_column_text(r_userinfo, 6));
        json_string(body, sizeof body, "email", sqlite3_column_text(r_userinfo, 1));
        size_t n = strlen(body);
        snprintf(body + n, sizeof body - n, ",\"email_verified\":%s,\"updated_at\":%lld}",
                 sqlite3_column_int(r_userinfo, 2) ? "true" : "false", sqlite3_column_int64(r_userinfo, 9) / 1000000);
    }
    sqlite3_reset(r_userinfo);
    step_done(r_commit);
    return found ? answer(c, 200, body) : answer(c, 401, unauthorized);
}

typedef struct { size_t length; char data[4096]; int too_long; } upload;

/* Answers on the call after the whole request (body included) has arrived: a response queued in
 * the first call, before MHD has read the (empty) body, makes MHD 0.9.75 close the connection. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **state) {
    (void)cls; (void)version;
    upload *u = *state;
    if (!u) { *state = calloc(1, sizeof(upload)); return MHD_YES; }
    if (*size) {
        if (u->length + *size >= sizeof u->data) u->too_long = 1;
        else { memcpy(u->data + u->length, data, *size); u->length += *size; }
        *size = 0;
        return MHD_YES;
    }
    u->data[u->length] = 0;
    if (u->too_long) return answer(c, 413, "{}");
    if (strcmp(method, "POST") == 0) {
        if (strcmp(url, "/token") == 0) return token_endpoint(c, u->data);
        if (strcmp(url, "/reference/start") == 0) return start_endpoint(c);
        return answer(c, 404, "{}");
    }
    if (strcmp(url, "/healthz") == 0) return answer(c, 200, "{\"status\":\"ok\"}");
    if (strcmp(url, "/userinfo") == 0) return userinfo_endpoint(c);
    return answer(c, 404, "{}");
}

static void completed(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls; (void)c; (void)code;
    free(*state);
    *state = NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) die("usage: floor DB PORT full|normal THREADS");
    db_path = argv[1];
    int port = atoi(argv[2]);
    sync_full = strcmp(argv[3], "full") == 0;
    int threads = atoi(argv[4]);
    RAND_bytes(hmac_key, sizeof hmac_key);
    if (!(signing_key = EVP_EC_gen("P-256"))) die("P-256 key");
    if (!(id_token_key = EVP_RSA_gen(2048))) die("RSA key");

    writer = open_db(1);
    sqlite3_stmt *s = prepare(writer, "SELECT id FROM users WHERE email = 'bench@example.com'");
    if (sqlite3_step(s) != SQLITE_ROW) die("no user bench@example.com");
    snprintf(user_id, sizeof user_id, "%s", sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_exec(writer,
                 "INSERT INTO grant_profiles (key_hash, client_id, scope, resources, amr) VALUES"
                 " (x'666c6f6f72', 'bench-app', 'openid profile email offline_access', '[]', '')"
                 " ON CONFLICT (key_hash) DO NOTHING", NULL, NULL, NULL);
    s = prepare(writer, "SELECT id FROM grant_profiles WHERE key_hash = x'666c6f6f72'");
    if (sqlite3_step(s) != SQLITE_ROW) die("no profile");
    profile_ref = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    w_rotation = prepare(writer, rotation_sql);
    w_mark = prepare(writer, mark_rotated_sql);
    w_insert = prepare(writer, insert_token_sql);
    w_grant = prepare(writer, insert_grant_sql);
    w_begin = prepare(writer, "BEGIN IMMEDIATE");
    w_commit = prepare(writer, "COMMIT");
    w_rollback = prepare(writer, "ROLLBACK");
    w_save = prepare(writer, "SAVEPOINT member");
    w_release = prepare(writer, "RELEASE member");
    w_undo = prepare(writer, "ROLLBACK TO member");

    /* Blocked before the daemon's threads start, so that they inherit it and sigwait gets it. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, (uint16_t)port, NULL, NULL, handle, NULL,
        MHD_OPTION_SOCK_ADDR, &address, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)threads,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(20 * 1024), MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_END);
    if (!d) die("cannot listen");
    int sig;
    sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
