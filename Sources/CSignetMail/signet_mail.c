#include "signet_mail.h"
#include <curl/curl.h>
#include <pthread.h>
#include <string.h>

struct upload {
    const unsigned char *data;
    size_t length;
    size_t offset;
};

static size_t read_upload(char *buffer, size_t size, size_t count, void *user) {
    struct upload *upload = user;
    size_t room = size * count;
    size_t left = upload->length - upload->offset;
    size_t n = left < room ? left : room;
    memcpy(buffer, upload->data + upload->offset, n);
    upload->offset += n;
    return n;
}

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

int signet_smtp_send(const struct signet_smtp_request *request, struct signet_smtp_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&global_once, global_init);
    CURL *curl = curl_easy_init();
    if (!curl) {
        result->curl_code = CURLE_FAILED_INIT;
        strncpy(result->message, "curl_easy_init failed", sizeof result->message - 1);
        return result->curl_code;
    }
    char error[CURL_ERROR_SIZE] = {0};
    struct curl_slist *recipients = NULL;
    for (size_t i = 0; i < request->rcpt_count; i++) {
        struct curl_slist *next = curl_slist_append(recipients, request->rcpt[i]);
        if (!next) { curl_slist_free_all(recipients); curl_easy_cleanup(curl); result->curl_code = CURLE_OUT_OF_MEMORY; return result->curl_code; }
        recipients = next;
    }
    struct upload upload = { request->message, request->message_length, 0 };

    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_URL, request->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, request->mail_from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)request->message_length);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_USE_SSL, request->require_tls ? (long)CURLUSESSL_ALL : (long)CURLUSESSL_NONE);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(curl, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    if (request->ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, request->ca_file);
    if (request->username) {
        curl_easy_setopt(curl, CURLOPT_USERNAME, request->username);
        curl_easy_setopt(curl, CURLOPT_PASSWORD, request->password ? request->password : "");
    }

    CURLcode code = curl_easy_perform(curl);
    long reply = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply);
    result->curl_code = (int)code;
    result->smtp_code = reply;
    if (code != CURLE_OK) {
        const char *text = error[0] ? error : curl_easy_strerror(code);
        strncpy(result->message, text, sizeof result->message - 1);
    }
    curl_slist_free_all(recipients);
    curl_easy_cleanup(curl);
    return result->curl_code;
}
