// Tokenizer interface: exact token counts as the served model computes them.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::tokenizer {

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // Ids of `text` without added special tokens (AIPerf's add_special_tokens=False). Special-token
  // text inside `text` is matched as Hugging Face does.
  virtual std::vector<std::int32_t> encode(std::string_view text) const = 0;
  virtual std::string decode(std::span<const std::int32_t> ids) const = 0;
  virtual std::size_t count(std::string_view text) const { return encode(text).size(); }
  virtual std::size_t vocab_size() const = 0;
};

}  // namespace inferperf::tokenizer
