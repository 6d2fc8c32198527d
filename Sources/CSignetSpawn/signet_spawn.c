#define _GNU_SOURCE
#include "signet_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <unistd.h>

/// Makes `target` (0, 1 or 2) a copy of `fd` in the child, or /dev/null when `fd` is -1.
static int stream(posix_spawn_file_actions_t *actions, int fd, int target) {
    if (fd < 0) {
        return posix_spawn_file_actions_addopen(actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
    }
    // dup2 onto the same number would keep the close-on-exec flag: our pipe ends are always >= 3.
    if (fd == target) return EINVAL;
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

int signet_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd,
                 int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid_out) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attributes);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return rc;
    }
    if (rc == 0) rc = stream(&actions, stdin_fd, 0);
    if (rc == 0) rc = stream(&actions, stdout_fd, 1);
    if (rc == 0) rc = stream(&actions, stderr_fd, 2);
    // Nothing else of ours reaches the child: not another child's pipe (whose reader would then
    // never see end of file), not a listening socket, not a process-tracking socket.
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (rc == 0 && cwd != NULL) rc = posix_spawn_file_actions_addchdir_np(&actions, cwd);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attributes, &none);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&attributes, &all);
    if (rc == 0) rc = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (rc == 0) {
        pid_t pid = 0;
        rc = strchr(path, '/') != NULL ? posix_spawn(&pid, path, &actions, &attributes, argv, envp)
                                       : posix_spawnp(&pid, path, &actions, &attributes, argv, envp);
        if (rc == 0) *pid_out = pid;
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int signet_cloexec_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
}
