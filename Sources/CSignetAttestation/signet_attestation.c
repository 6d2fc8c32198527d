#include "signet_attestation.h"

#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

// Whether the subject holds an entry `nid` with a non-empty value; with `expected`, exactly that value.
static int subject_has(X509_NAME *name, int nid, const char *expected) {
    int index = X509_NAME_get_index_by_NID(name, nid, -1);
    if (index < 0) return 0;
    ASN1_STRING *value = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index));
    if (value == NULL) return 0;
    int length = ASN1_STRING_length(value);
    if (length <= 0) return 0;
    if (expected == NULL) return 1;
    return (size_t)length == strlen(expected) && memcmp(ASN1_STRING_get0_data(value), expected, (size_t)length) == 0;
}

int signet_attestation_cert_read(const unsigned char *der, size_t length, struct signet_attestation_cert *out) {
    memset(out, 0, sizeof(*out));
    if (der == NULL || length == 0 || length > 65536) return -1;
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) return -1;
    if ((size_t)(cursor - der) != length) {
        X509_free(cert);
        return -1;
    }
    out->version = X509_get_version(cert);

    X509_NAME *subject = X509_get_subject_name(cert);
    if (subject != NULL) {
        out->subject_country = subject_has(subject, NID_countryName, NULL);
        out->subject_organization = subject_has(subject, NID_organizationName, NULL);
        out->subject_unit_ok = subject_has(subject, NID_organizationalUnitName, "Authenticator Attestation");
        out->subject_common_name = subject_has(subject, NID_commonName, NULL);
    }

    int critical = 0;
    BASIC_CONSTRAINTS *constraints = X509_get_ext_d2i(cert, NID_basic_constraints, &critical, NULL);
    if (constraints != NULL) {
        out->basic_constraints = constraints->ca ? 2 : 1;
        BASIC_CONSTRAINTS_free(constraints);
    } else if (critical == -2) {
        out->basic_constraints = 2; // more than one basicConstraints extension: treat as a CA
    }

    ASN1_OBJECT *aaguid_oid = OBJ_txt2obj("1.3.6.1.4.1.45724.1.1.4", 1);
    if (aaguid_oid != NULL) {
        int index = X509_get_ext_by_OBJ(cert, aaguid_oid, -1);
        if (index >= 0) {
            X509_EXTENSION *extension = X509_get_ext(cert, index);
            out->aaguid_present = 1;
            out->aaguid_critical = X509_EXTENSION_get_critical(extension) ? 1 : 0;
            // The extension's value is the DER of an OCTET STRING of 16 bytes: 04 10 <aaguid>.
            ASN1_OCTET_STRING *value = X509_EXTENSION_get_data(extension);
            if (value != NULL && ASN1_STRING_length(value) == 18) {
                const unsigned char *bytes = ASN1_STRING_get0_data(value);
                if (bytes[0] == 0x04 && bytes[1] == 0x10) {
                    memcpy(out->aaguid, bytes + 2, 16);
                    out->aaguid_well_formed = 1;
                }
            }
            if (X509_get_ext_by_OBJ(cert, aaguid_oid, index) >= 0) out->aaguid_well_formed = 0; // repeated
        }
        ASN1_OBJECT_free(aaguid_oid);
    }

    unsigned char *spki = NULL;
    int spki_length = i2d_PUBKEY(X509_get0_pubkey(cert), &spki);
    X509_free(cert);
    if (spki_length <= 0 || spki == NULL) return -1;
    out->spki = spki;
    out->spki_length = (size_t)spki_length;
    return 0;
}

void signet_attestation_cert_free(struct signet_attestation_cert *cert) {
    if (cert->spki != NULL) OPENSSL_free(cert->spki);
    cert->spki = NULL;
    cert->spki_length = 0;
}
