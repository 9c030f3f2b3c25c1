#pragma once
// A hand-in's content as a SHA-256 (libsodium), so a cohort's rerun can tell which hand-ins
// changed: a file's bytes, or for a folder its sorted relative paths, types, modes and contents.
#include <filesystem>
#include <string>

namespace arena::handin {

// 64 lowercase hex digits. Links inside a folder are hashed by their target, never followed;
// fifos, sockets and devices by their type only (nothing is opened that could block). Throws
// std::runtime_error when something cannot be read.
std::string content_hash(const std::filesystem::path& path);

}  // namespace arena::handin
