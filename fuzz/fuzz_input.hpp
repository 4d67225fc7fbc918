// The fuzz input as a few control bytes followed by a payload. Harnesses take their choices
// (which endpoint, which split sizes, which options) from the front so the payload stays a
// readable SSE stream, JSONL file or tokenizer.json in the seed corpora.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace inferperf::fuzz {

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size)
      : text_(reinterpret_cast<const char*>(data), size) {}

  // The next byte, or 0 once the input is used up (short inputs still exercise every harness).
  std::uint8_t byte() {
    if (text_.empty()) return 0;
    const auto b = static_cast<std::uint8_t>(text_.front());
    text_.remove_prefix(1);
    return b;
  }
  // Everything up to the next `delimiter` (which is consumed); the rest when there is none.
  std::string_view until(char delimiter) {
    const std::size_t at = text_.find(delimiter);
    std::string_view piece = text_.substr(0, at);
    text_.remove_prefix(at == std::string_view::npos ? text_.size() : at + 1);
    return piece;
  }
  std::string_view rest() const { return text_; }
  bool empty() const { return text_.empty(); }

 private:
  std::string_view text_;
};

// An invariant the harness checks: abort (a libFuzzer crash, a failed replay test) with a message.
[[noreturn]] inline void fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", file, line, what);
  std::abort();
}

}  // namespace inferperf::fuzz

#define FUZZ_CHECK(cond) \
  ((cond) ? static_cast<void>(0) : ::inferperf::fuzz::fail(#cond, __FILE__, __LINE__))
