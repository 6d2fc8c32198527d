#include "signet_mhd_shims.h"

uint16_t signet_mhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return di ? di->port : 0;
}
