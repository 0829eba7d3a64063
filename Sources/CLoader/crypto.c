/* OpenSSL's libcrypto (libcrypto.so.3), opened when a message is first sealed, opened or
 * hashed: a plain encode needs none of it, and its 3,400 symbol bindings were half of those
 * the loader made at start-up. The functions Crypto+libcrypto.swift calls. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include "lazy.h"

#define CRYPTO_FUNCTIONS(F, V)                                                                \
    F(const char *, OpenSSL_version, (int type), (type), NULL)                                \
    F(int, RAND_bytes, (unsigned char *buf, int num), (buf, num), 0)                          \
    F(unsigned long, ERR_get_error, (void), (), 0)                                            \
    V(ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len))            \
    F(int, CRYPTO_memcmp, (const void *a, const void *b, size_t len), (a, b, len), 1)         \
    F(const EVP_MD *, EVP_sha256, (void), (), NULL)                                           \
    F(const EVP_CIPHER *, EVP_aes_256_gcm, (void), (), NULL)                                  \
    F(const EVP_CIPHER *, EVP_chacha20_poly1305, (void), (), NULL)                            \
    F(int, EVP_Digest, (const void *data, size_t count, unsigned char *md, unsigned int *size, \
                        const EVP_MD *type, ENGINE *impl), (data, count, md, size, type, impl), 0) \
    F(unsigned char *, HMAC, (const EVP_MD *evp_md, const void *key, int key_len, const unsigned char *data, \
                              size_t data_len, unsigned char *md, unsigned int *md_len),      \
      (evp_md, key, key_len, data, data_len, md, md_len), NULL)                               \
    F(int, EVP_PBE_scrypt, (const char *pass, size_t passlen, const unsigned char *salt, size_t saltlen, \
                            uint64_t N, uint64_t r, uint64_t p, uint64_t maxmem, unsigned char *key, \
                            size_t keylen), (pass, passlen, salt, saltlen, N, r, p, maxmem, key, keylen), 0) \
    F(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), (), NULL)                                 \
    V(EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX *c), (c))                                          \
    F(int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr), 0) \
    F(int, EVP_EncryptInit_ex, (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl,  \
                                const unsigned char *key, const unsigned char *iv), (ctx, cipher, impl, key, iv), 0) \
    F(int, EVP_EncryptUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, \
                               int inl), (ctx, out, outl, in, inl), 0)                        \
    F(int, EVP_EncryptFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl), (ctx, out, outl), 0) \
    F(int, EVP_DecryptInit_ex, (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl,  \
                                const unsigned char *key, const unsigned char *iv), (ctx, cipher, impl, key, iv), 0) \
    F(int, EVP_DecryptUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, \
                               int inl), (ctx, out, outl, in, inl), 0)                        \
    F(int, EVP_DecryptFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl), (ctx, outm, outl), 0) \
    F(EVP_PKEY *, EVP_PKEY_new_raw_private_key, (int type, ENGINE *e, const unsigned char *priv, size_t len), \
      (type, e, priv, len), NULL)                                                             \
    F(EVP_PKEY *, EVP_PKEY_new_raw_public_key, (int type, ENGINE *e, const unsigned char *pub, size_t len), \
      (type, e, pub, len), NULL)                                                              \
    F(int, EVP_PKEY_get_raw_public_key, (const EVP_PKEY *pkey, unsigned char *pub, size_t *len), \
      (pkey, pub, len), 0)                                                                    \
    V(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey))                                                \
    F(EVP_PKEY_CTX *, EVP_PKEY_CTX_new, (EVP_PKEY *pkey, ENGINE *e), (pkey, e), NULL)         \
    V(EVP_PKEY_CTX_free, (EVP_PKEY_CTX *ctx), (ctx))                                          \
    F(int, EVP_PKEY_derive_init, (EVP_PKEY_CTX *ctx), (ctx), 0)                               \
    F(int, EVP_PKEY_derive_set_peer, (EVP_PKEY_CTX *ctx, EVP_PKEY *peer), (ctx, peer), 0)     \
    F(int, EVP_PKEY_derive, (EVP_PKEY_CTX *ctx, unsigned char *key, size_t *keylen), (ctx, key, keylen), 0)

QRSEAL_LAZY_LIBRARY(qrseal_lazy_crypto, "libcrypto.so.3", CRYPTO_FUNCTIONS)
