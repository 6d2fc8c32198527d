import CSignetAttestation
import SignetCrypto

extension AttestationCertificate {
    static func read(_ der: [UInt8]) throws(WebAuthnError) -> AttestationCertificate {
        var cert = signet_attestation_cert()
        defer { signet_attestation_cert_free(&cert) }
        let status = der.withUnsafeBufferPointer { signet_attestation_cert_read($0.baseAddress, $0.count, &cert) }
        guard status == 0, let spki = cert.spki else { throw .invalidAttestation("x5c[0] is not a DER X.509 certificate") }
        guard cert.version == 2 else { throw .invalidAttestation("x5c[0] is not an X.509 v3 certificate") }
        guard cert.subject_country == 1, cert.subject_organization == 1, cert.subject_common_name == 1 else {
            throw .invalidAttestation("x5c[0]'s subject lacks C, O or CN")
        }
        guard cert.subject_unit_ok == 1 else { throw .invalidAttestation("x5c[0]'s subject OU is not \"Authenticator Attestation\"") }
        guard cert.basic_constraints != 2 else { throw .invalidAttestation("x5c[0] is a CA certificate") }
        var aaguid: [UInt8]?
        if cert.aaguid_present == 1 {
            guard cert.aaguid_critical == 0 else { throw .invalidAttestation("x5c[0]'s AAGUID extension is critical") }
            guard cert.aaguid_well_formed == 1 else { throw .invalidAttestation("x5c[0]'s AAGUID extension is malformed") }
            aaguid = withUnsafeBytes(of: cert.aaguid) { Array($0) }
        }
        let key: PublicKey
        do {
            key = try PublicKey(spkiDER: Array(UnsafeBufferPointer(start: spki, count: cert.spki_length)))
        } catch {
            throw .invalidAttestation("x5c[0]'s public key is not supported: \(error)")
        }
        return AttestationCertificate(publicKey: key, aaguid: aaguid)
    }
}
