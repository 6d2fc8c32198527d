#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Port the daemon is bound to (useful after binding port 0).
uint16_t signet_mhd_bound_port(struct MHD_Daemon *d);
