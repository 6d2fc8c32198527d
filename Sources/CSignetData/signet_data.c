#include "signet_data.h"

// `.incbin` finds the file through the target's header search path (data/, see Package.swift),
// so the list is part of the binary: `signet` stays one file.
__asm__(".section .rodata\n"
        ".balign 16\n"
        ".globl signet_common_passwords_start\n"
        ".hidden signet_common_passwords_start\n"
        ".globl signet_common_passwords_end\n"
        ".hidden signet_common_passwords_end\n"
        "signet_common_passwords_start:\n"
        ".incbin \"common-passwords.txt\"\n"
        "signet_common_passwords_end:\n"
        ".byte 0\n"
        ".previous\n");

extern const unsigned char signet_common_passwords_start[];
extern const unsigned char signet_common_passwords_end[];

const unsigned char *signet_common_passwords(size_t *length) {
    *length = (size_t)(signet_common_passwords_end - signet_common_passwords_start);
    return signet_common_passwords_start;
}
