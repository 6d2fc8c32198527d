#pragma once
#include <stddef.h>

/// What the X.509 checks of W3C WebAuthn §8.2.1 ("Certificate Requirements for Packed Attestation
/// Statements") found in one DER certificate. Filled by `signet_attestation_cert_read`.
struct signet_attestation_cert {
    long version;               ///< X.509 version as written (2 means v3)
    int subject_country;        ///< 1 when the subject has a non-empty C
    int subject_organization;   ///< 1 when the subject has a non-empty O
    int subject_unit_ok;        ///< 1 when the subject's OU is exactly "Authenticator Attestation"
    int subject_common_name;    ///< 1 when the subject has a non-empty CN
    int basic_constraints;      ///< 0 absent, 1 present with CA false, 2 present with CA true
    int aaguid_present;         ///< 1 when id-fido-gen-ce-aaguid (1.3.6.1.4.1.45724.1.1.4) is present
    int aaguid_critical;        ///< 1 when that extension is marked critical
    int aaguid_well_formed;     ///< 1 when its value is an OCTET STRING of exactly 16 bytes
    unsigned char aaguid[16];   ///< the AAGUID when well formed
    unsigned char *spki;        ///< the DER SubjectPublicKeyInfo (free with signet_attestation_cert_free)
    size_t spki_length;
};

/// Parses `der` (all of it: trailing bytes are refused) and fills `out`.
/// Returns 0, or -1 when `der` is not one well-formed certificate. Thread-safe.
int signet_attestation_cert_read(const unsigned char *der, size_t length, struct signet_attestation_cert *out);

/// Frees what `signet_attestation_cert_read` allocated in `cert`; safe on a zeroed struct.
void signet_attestation_cert_free(struct signet_attestation_cert *cert);
