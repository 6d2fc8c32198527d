#pragma once
#include <sys/types.h>

/// Starts `path` (an absolute path, or a name looked up on this process's PATH) with `argv` and
/// `envp` (both NULL-terminated), in `cwd` (NULL: this process's), with `stdin_fd`, `stdout_fd`
/// and `stderr_fd` as its standard streams (-1: /dev/null). The child gets no other descriptor of
/// this process (everything from 3 up is closed in the child), an empty signal mask and default
/// signal dispositions (SIGPIPE included). Returns 0 and the child's id in `pid_out`, or an errno
/// value.
int signet_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd,
                 int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid_out);

/// A pipe whose two ends are close-on-exec: `fds[0]` reads, `fds[1]` writes. 0 or an errno value.
int signet_cloexec_pipe(int fds[2]);
