// Where a plain run of JSON string text ends: the first stop byte, at every position and length
// around the 8- and 16-byte steps (and their overlapping last step), for every byte value.
#include "core/json_bytes.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace inferperf::core {
namespace {

using RunEnd = const char* (*)(const char*, const char*);

// Both the function the code calls (16-byte steps on x86) and its 8-byte steps, which targets
// without SSE2 use for every text.
constexpr RunEnd kRunEnds[] = {json_plain_run_end, json_plain_run_end_by_words};

std::size_t run_end(RunEnd f, const std::string& s) {
  return static_cast<std::size_t>(f(s.data(), s.data() + s.size()) - s.data());
}

std::size_t first_stop(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && !json_string_stop(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

TEST(JsonBytes, ARunEndsAtTheFirstStopAtEveryPositionAndLength) {
  for (const RunEnd f : kRunEnds) {
    for (std::size_t size = 0; size <= 48; ++size) {
      ASSERT_EQ(run_end(f, std::string(size, 'a')), size);
      for (std::size_t at = 0; at < size; ++at) {
        for (int c = 0; c < 256; ++c) {
          std::string text(size, 'a');
          text[at] = static_cast<char>(c);
          // A second stop after the first, which must not be the one found.
          if (at + 3 < size) text[at + 3] = '"';
          ASSERT_EQ(run_end(f, text), first_stop(text))
              << "size " << size << " at " << at << " byte " << c;
        }
      }
    }
  }
}

TEST(JsonBytes, RandomTextsEndWhereTheByteRuleSays) {
  std::mt19937 rng(11);
  for (int i = 0; i < 20'000; ++i) {
    std::string text(rng() % 80, ' ');
    for (char& ch : text) ch = static_cast<char>(rng() % 24 ? 0x20 + rng() % 0x60 : rng() % 256);
    for (const RunEnd f : kRunEnds) ASSERT_EQ(run_end(f, text), first_stop(text)) << text;
  }
  for (const RunEnd f : kRunEnds)
    EXPECT_EQ(f(nullptr, nullptr), nullptr);  // an empty view may hold no pointer
}

}  // namespace
}  // namespace inferperf::core
