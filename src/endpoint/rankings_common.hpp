// Pieces the three reranker endpoints share.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// The query's passages: the turn's texts named "passages", else its further texts.
std::vector<std::string> passages_of(const dataset::Turn& t);
// A ranking response whose results are the list under `key`; with `top_level_list` the whole
// response may be that list (TEI).
DecodedEvent decode_rankings(std::string_view payload, std::string_view key, bool top_level_list);

}  // namespace inferperf::endpoint
