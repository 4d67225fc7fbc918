// The images, audio clips and videos of a synthetic dataset (AIPerf 0.11 §1.13): every draw
// (sizes, formats, lengths, rates, depths, source pictures) is made in order from named seeded
// streams, then the media are made on every core, so one seed gives the same choices whatever
// the thread count.
#pragma once
#include <cstdint>
#include <optional>

#include "config/run_config.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "dataset/conversation.hpp"

namespace inferperf::dataset {

// Appends each turn's pictures, then clips, then videos to its `media` (content-part order).
// Errors: a folder with no readable picture, or whose pictures decode to more than
// `memory_budget` bytes; an encoder this FFmpeg lacks; a clip that cannot be encoded.
std::optional<core::Error> add_synthetic_media(Dataset& ds, const config::MediaConfig& m,
                                               const core::RngFactory& rngs,
                                               std::uint64_t memory_budget, int threads = 0);

// Bytes the media of `turns` turns will hold as base64 (an upper bound for noise, the largest
// case), and the largest raw frame or clip one generating thread holds.
struct MediaEstimate {
  double per_turn = 0;
  double working = 0;
};
MediaEstimate estimate_media(const config::MediaConfig& m);

}  // namespace inferperf::dataset
