#if HTTP
import Crypto
import FeedBench
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The certificate and key `bench serve --tls` speaks TLS with: one it makes at start (a
/// self-signed P-256 certificate for `localhost`, 127.0.0.1, ::1 and the address it listens on,
/// valid for a week from an hour before it started; its own CA with a path length of 0, as
/// BoringSSL wants of a certificate a client trusts as its root) or one the user brings
/// (`--tls-cert`, `--tls-key`, PEM). A client trusts the made one by its SHA-256 fingerprint, which the
/// server prints, or by `certificatePEM`.
public struct ServeTLS: Sendable {
    /// The certificate chain, leaf first, as PEM.
    public let certificatePEM: String
    /// The leaf's private key as PEM.
    public let keyPEM: String
    /// SHA-256 of the leaf's DER encoding, as colon-separated hex pairs (as
    /// `openssl x509 -noout -fingerprint -sha256` prints it).
    public let fingerprint: String

    /// A certificate made now for `host` (and the loopback names), signed by its own new key.
    public static func generated(host: String, now: Date = Date()) throws -> ServeTLS {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("bench serve") }
        var names: [GeneralName] = [.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                                    .ipAddress(ASN1OctetString(contentBytes: ArraySlice(Array(repeating: 0, count: 15) + [1])))]
        if let address = ipAddressBytes(host), !address.allSatisfy({ $0 == 0 }) {
            let general = GeneralName.ipAddress(ASN1OctetString(contentBytes: ArraySlice(address)))
            if !names.contains(general) { names.append(general) }
        } else if ipAddressBytes(host) == nil, host != "localhost" {
            names.append(.dnsName(host))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(7 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key))
        return ServeTLS(certificatePEM: try certificate.serializeAsPEM().pemString, keyPEM: key.pemRepresentation,
                        fingerprint: try fingerprint(of: certificate))
    }

    /// The certificate chain in the PEM file at `certificatePath` and the key in `keyPath`.
    /// Throws an `InputError` naming the file when one cannot be read, holds no certificate or
    /// key in PEM, or when the key is not the certificate's.
    public static func loading(certificate certificatePath: String, key keyPath: String) throws -> ServeTLS {
        let certificatePEM = try read(certificatePath, option: "--tls-cert")
        let keyPEM = try read(keyPath, option: "--tls-key")
        let documents = (try? PEMDocument.parseMultiple(pemString: certificatePEM)) ?? []
        let chain = documents.filter { $0.discriminator == "CERTIFICATE" }.compactMap { try? Certificate(pemDocument: $0) }
        guard let leaf = chain.first, chain.count == documents.count else {
            throw InputError(source: certificatePath, "expected PEM certificates (-----BEGIN CERTIFICATE-----), leaf first")
        }
        guard let key = try? Certificate.PrivateKey(pemEncoded: keyPEM) else {
            throw InputError(source: keyPath, "expected a PEM private key (PKCS#8, EC or RSA)")
        }
        guard key.publicKey == leaf.publicKey else {
            throw InputError(source: keyPath, "expected the private key of the certificate in \(certificatePath); this key is another's")
        }
        // What NIOSSL reads must be what was checked.
        guard (try? NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)))?.count == chain.count,
              (try? NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)) != nil else {
            throw InputError(source: keyPath, "expected a certificate and key that TLS can use")
        }
        return ServeTLS(certificatePEM: certificatePEM, keyPEM: keyPEM, fingerprint: try fingerprint(of: leaf))
    }

    /// The server's TLS configuration: this chain and key, TLS 1.2 or later.
    func configuration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
        let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }

    private static func fingerprint(of certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    private static func read(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError(source: option, "cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw InputError(source: path, "expected PEM text, found binary data") }
        return text
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address written as text, else `nil`.
    static func ipAddressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
#endif
