// Hugging Face decoders: ByteLevel, Metaspace, ByteFallback, Fuse, Strip, Replace, WordPiece,
// BPEDecoder and Sequence, applied to the token strings of an id sequence.
#pragma once
#include <simdjson.h>

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/error.hpp"

namespace inferperf::tokenizer {

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual std::vector<std::string> decode_chain(std::vector<std::string> tokens) const = 0;
};

// `added_tokens` are passed through untouched by the ByteLevel decoder.
core::Result<std::unique_ptr<Decoder>> make_decoder(
    simdjson::dom::element config, const std::unordered_set<std::string>* added_tokens);

}  // namespace inferperf::tokenizer
