// A certificate for the tests of the table over TLS (the server's, the app's client).
#pragma once

#include <catch2/catch.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <string>

namespace sightline::test {

// A self-signed certificate for 127.0.0.1 (its common name and its subject alternative name, which
// a client checking an address reads) and its key (P-256), written as PEM files.
inline void makeCertificate(const std::string& cert, const std::string& key) {
    EVP_PKEY* pkey = EVP_EC_gen("P-256");
    REQUIRE(pkey);
    X509* x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600);
    X509_set_pubkey(x, pkey);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
    X509_set_issuer_name(x, name);
    X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, nullptr, NID_subject_alt_name, const_cast<char*>("IP:127.0.0.1"));
    REQUIRE(san);
    X509_add_ext(x, san, -1);
    X509_EXTENSION_free(san);
    REQUIRE(X509_sign(x, pkey, EVP_sha256()) > 0);
    FILE* f = std::fopen(cert.c_str(), "w");
    REQUIRE(f);
    PEM_write_X509(f, x);
    std::fclose(f);
    f = std::fopen(key.c_str(), "w");
    REQUIRE(f);
    PEM_write_PrivateKey(f, pkey, nullptr, nullptr, 0, nullptr, nullptr);
    std::fclose(f);
    X509_free(x);
    EVP_PKEY_free(pkey);
}

}  // namespace sightline::test
