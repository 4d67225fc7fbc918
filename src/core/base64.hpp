// Base64 (RFC 4648, standard alphabet) for data: URIs, media parts and form files: one encoder and
// one strict decoder for the client, its endpoints and the mock server.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace inferperf::core {

// Padded base64 of `bytes`.
std::string base64_encode(std::string_view bytes);

// Strict base64 (RFC 4648 alphabet, '=' padding only at the end); nullopt for anything else.
std::optional<std::string> base64_decode_strict(std::string_view text);

}  // namespace inferperf::core
