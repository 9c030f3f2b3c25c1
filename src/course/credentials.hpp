#pragma once
// Passwords, API tokens and session ids (libsodium). Passwords are kept as argon2id hashes; tokens
// and session ids are random and kept only as their SHA-256, so a copy of the database lets no
// one in.
#include <string>
#include <string_view>

namespace arena::course {

// An argon2id hash in the standard $argon2id$ form (libsodium's interactive limits).
std::string hash_password(std::string_view password);
bool password_matches(std::string_view password, const std::string& hash);

// `bytes` random bytes as URL-safe base64 without padding.
std::string random_secret(int bytes = 32);
// A password people can type: 4 groups of 4 letters and digits without look-alikes.
std::string random_password();
// Standard base64 with padding (a Kubernetes Secret's data).
std::string base64(std::string_view bytes);
// 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);
// Compares without leaking where they differ.
bool same_secret(std::string_view a, std::string_view b);

inline constexpr std::size_t kMinPasswordLength = 10;
inline constexpr std::size_t kMaxPasswordLength = 256;

}  // namespace arena::course
