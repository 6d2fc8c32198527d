#include "signet_mhd_shims.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

struct MHD_Daemon *signet_mhd_start(const struct signet_mhd_config *c) {
    struct MHD_OptionItem ops[16];
    int i = 0;
    if (c->address != NULL)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)c->address };
    if (c->thread_pool_size > 1)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)c->thread_pool_size, NULL };
    if (c->connection_limit > 0)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)c->connection_limit, NULL };
    if (c->per_ip_connection_limit > 0)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)c->per_ip_connection_limit, NULL };
    if (c->connection_timeout_seconds > 0)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)c->connection_timeout_seconds, NULL };
    if (c->connection_memory_limit > 0)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)c->connection_memory_limit, NULL };
    if (c->completed != NULL)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)c->completed, c->completed_cls };
    if (c->uri_log != NULL)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)c->uri_log, c->uri_log_cls };
    if (c->notify_connection != NULL)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)c->notify_connection, c->notify_connection_cls };
    if (c->tls_certificate_pem != NULL)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)c->tls_certificate_pem };
    if (c->tls_private_key_pem != NULL)
        ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)c->tls_private_key_pem };
    ops[i++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(c->flags, 0, NULL, NULL, c->access_handler, c->access_handler_cls,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

uint16_t signet_mhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return di ? di->port : 0;
}

size_t signet_mhd_client_ip(struct MHD_Connection *connection, char *buffer, size_t capacity) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci == NULL || ci->client_addr == NULL || capacity == 0) return 0;
    const struct sockaddr *sa = ci->client_addr;
    const char *r = NULL;
    if (sa->sa_family == AF_INET)
        r = inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, (socklen_t)capacity);
    else if (sa->sa_family == AF_INET6)
        r = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, (socklen_t)capacity);
    return r ? strlen(buffer) : 0;
}

int signet_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return ci ? ci->connect_fd : -1;
}

void *signet_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}
