#include "signet_resolver.h"
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <string.h>

int signet_txt_query(const char *name, const char *server_ipv4, int port, int timeout_seconds,
                     unsigned char *out, size_t out_capacity, size_t *out_length) {
    *out_length = 0;
    struct __res_state state;
    memset(&state, 0, sizeof state);
    if (res_ninit(&state) != 0) return SIGNET_TXT_FAILED;
    state.retrans = timeout_seconds > 0 ? timeout_seconds : 1;
    state.retry = 2;
    // Only the name as given: no search list, no domain appended.
    state.options &= ~(unsigned long)(RES_DEFNAMES | RES_DNSRCH);
    if (server_ipv4 != NULL) {
        struct sockaddr_in address;
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_port = htons((unsigned short)port);
        if (inet_pton(AF_INET, server_ipv4, &address.sin_addr) != 1) { res_nclose(&state); return SIGNET_TXT_FAILED; }
        state.nsaddr_list[0] = address;
        state.nscount = 1;
    }
    unsigned char answer[8192];
    int length = res_nquery(&state, name, ns_c_in, ns_t_txt, answer, sizeof answer);
    if (length < 0) {
        int error = state.res_h_errno;
        res_nclose(&state);
        return (error == HOST_NOT_FOUND || error == NO_DATA) ? SIGNET_TXT_NO_RECORD : SIGNET_TXT_FAILED;
    }
    res_nclose(&state);
    if ((size_t)length > sizeof answer) return SIGNET_TXT_FAILED;
    return signet_txt_read_answer(answer, (size_t)length, out, out_capacity, out_length);
}

int signet_txt_read_answer(const unsigned char *answer, size_t length, unsigned char *out, size_t out_capacity,
                           size_t *out_length) {
    *out_length = 0;
    if (length > 65535) return SIGNET_TXT_FAILED;
    ns_msg message;
    if (ns_initparse(answer, (int)length, &message) != 0) return SIGNET_TXT_FAILED;
    int count = ns_msg_count(message, ns_s_an);
    int found = 0;
    size_t used = 0;
    for (int index = 0; index < count; index++) {
        ns_rr record;
        if (ns_parserr(&message, ns_s_an, index, &record) != 0) return SIGNET_TXT_FAILED;
        if (ns_rr_type(record) != ns_t_txt || ns_rr_class(record) != ns_c_in) continue;
        const unsigned char *data = ns_rr_rdata(record);
        size_t data_length = ns_rr_rdlen(record);
        // The record's character-strings, joined: a length octet and that many bytes each (RFC 1035 §3.3.14).
        size_t start = used;
        if (used + 2 > out_capacity) return SIGNET_TXT_TOO_LONG;
        used += 2;
        size_t offset = 0;
        while (offset < data_length) {
            size_t piece = data[offset];
            offset += 1;
            if (offset + piece > data_length) return SIGNET_TXT_FAILED;
            if (used + piece > out_capacity) return SIGNET_TXT_TOO_LONG;
            memcpy(out + used, data + offset, piece);
            used += piece;
            offset += piece;
        }
        size_t joined = used - start - 2;
        if (joined > 0xFFFF) return SIGNET_TXT_TOO_LONG;
        out[start] = (unsigned char)(joined >> 8);
        out[start + 1] = (unsigned char)(joined & 0xFF);
        found++;
    }
    *out_length = used;
    return found > 0 ? SIGNET_TXT_FOUND : SIGNET_TXT_NO_RECORD;
}
