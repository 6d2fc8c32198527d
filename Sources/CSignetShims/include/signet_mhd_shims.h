#pragma once
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Everything `signet_mhd_start` passes to the variadic `MHD_start_daemon`.
/// Zero or NULL fields are left out of the option list (MHD's default applies).
struct signet_mhd_config {
    unsigned int flags;
    /// `struct sockaddr_in` or `struct sockaddr_in6` (with MHD_USE_IPv6); must outlive the call only.
    const struct sockaddr *address;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    /// MHD_OPTION_PER_IP_CONNECTION_LIMIT; 0 for none.
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    /// PEM strings for MHD_USE_TLS; MHD keeps the pointers, so they must outlive the daemon.
    const char *tls_certificate_pem;
    const char *tls_private_key_pem;
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *uri_log_cls;
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_cls;
};

/// Starts a daemon with the options in `config` (MHD_start_daemon is variadic; Swift cannot call it).
struct MHD_Daemon *signet_mhd_start(const struct signet_mhd_config *config);

/// Port the daemon is bound to (useful after binding port 0); 0 if unknown.
uint16_t signet_mhd_bound_port(struct MHD_Daemon *d);

/// Writes the client's IP literal (no port, no brackets) into `buffer`; returns its length, or 0.
size_t signet_mhd_client_ip(struct MHD_Connection *connection, char *buffer, size_t capacity);

/// The connection's socket descriptor, or -1.
int signet_mhd_connection_fd(struct MHD_Connection *connection);

/// The per-connection pointer set in the MHD_OPTION_NOTIFY_CONNECTION callback, or NULL.
void *signet_mhd_socket_context(struct MHD_Connection *connection);
