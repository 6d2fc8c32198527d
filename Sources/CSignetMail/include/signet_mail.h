#pragma once
#include <stddef.h>

/// One message handed to an SMTP server with libcurl (Debian's libcurl4-openssl-dev).
struct signet_smtp_request {
    const char *url;            ///< smtp://host:port or smtps://host:port
    const char *mail_from;      ///< envelope sender (an address, no angle brackets)
    const char *const *rcpt;    ///< envelope recipients
    size_t rcpt_count;
    const unsigned char *message; ///< the RFC 5322 message, CRLF line ends
    size_t message_length;
    const char *username;       ///< NULL: no AUTH
    const char *password;
    const char *ca_file;        ///< NULL: the system trust store
    int require_tls;            ///< 1: STARTTLS must succeed on smtp:// (smtps:// is TLS anyway)
    long timeout_ms;            ///< the whole transfer
    long connect_timeout_ms;
};

/// What became of it.
struct signet_smtp_result {
    int curl_code;              ///< CURLcode; 0 = accepted by the server
    long smtp_code;             ///< the last SMTP reply code (0 when none was read)
    char message[256];          ///< libcurl's error text (never the message or the password)
};

/// Sends one message; returns curl_code. Safe to call from many threads at once.
int signet_smtp_send(const struct signet_smtp_request *request, struct signet_smtp_result *result);
