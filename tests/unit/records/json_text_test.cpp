// The JSON text writers give nlohmann's bytes: doubles over every exponent range and random bit
// patterns, integers at both ends and around every group of eight digits, non-finite numbers as
// null, and objects built member by member; the plain-text check follows its byte rule.
#include "records/json_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace inferperf::records {
namespace {

std::string dumped(double v) {
  return nlohmann::json(v).dump();
}

std::string written(double v) {
  std::string out = "x";  // appends, never clears
  put_json_double(v, out);
  return out.substr(1);
}

TEST(JsonText, DoublesAsNlohmannWritesThem) {
  const double cases[] = {0.0,
                          -0.0,
                          1.0,
                          -1.0,
                          32.0,
                          0.1,
                          0.25,
                          1e-4,
                          1e-5,
                          1.5e-5,
                          123.456,
                          1e15,
                          1e16,
                          1.5e16,
                          1e17,
                          9.99e14,
                          1e21,
                          1e300,
                          1e-300,
                          5e-324,
                          2.2250738585072014e-308,
                          std::numeric_limits<double>::max(),
                          1850.0 / 1e6,
                          1.0 / 3.0};
  for (double v : cases) EXPECT_EQ(written(v), dumped(v)) << v;
  EXPECT_EQ(written(32.0), "32.0");
  EXPECT_EQ(written(1e-5), "1e-05");
  EXPECT_EQ(written(-0.0), "-0.0");
}

TEST(JsonText, RandomDoublesAsNlohmannWritesThem) {
  std::mt19937_64 rng(11);
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(written(v), dumped(v)) << std::bit_cast<std::uint64_t>(v);
    ++compared;
  }
  // Values in a latency's range too: milliseconds with microsecond noise.
  std::uniform_real_distribution<double> ms(0.0, 60'000.0);
  for (int i = 0; i < 20000; ++i) {
    const double v = ms(rng);
    ASSERT_EQ(written(v), dumped(v)) << v;
    ++compared;
  }
  EXPECT_GT(compared, 39000);
}

TEST(JsonText, NonFiniteIsNullAsInNlohmann) {
  for (double v :
       {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_EQ(written(v), "null");
    EXPECT_EQ(dumped(v), "null");
  }
}

TEST(JsonText, IntegersAtBothEnds) {
  for (std::int64_t v :
       {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1}, std::int64_t{0},
        std::int64_t{1'796'543'005'761'070'786}, std::numeric_limits<std::int64_t>::max()}) {
    std::string out;
    put_json_int(v, out);
    EXPECT_EQ(out, nlohmann::json(v).dump());
  }
}

// Eight digits at a time: every power of ten and its neighbours (each group boundary among them),
// negatives, and random values of every width, against the standard library's digits; nothing is
// written past the count returned.
TEST(JsonText, IntegersAroundEveryGroupBoundary) {
  std::vector<std::int64_t> values = {std::numeric_limits<std::int64_t>::min(),
                                      std::numeric_limits<std::int64_t>::max()};
  std::int64_t power = 1;
  for (int k = 0; k <= 18; ++k) {
    for (std::int64_t v : {power - 1, power, power + 1}) {
      values.push_back(v);
      values.push_back(-v);
    }
    if (k < 18) power *= 10;  // 10^19 is past the largest value
  }
  std::mt19937_64 rng(29);
  for (int i = 0; i < 20'000; ++i) {
    // 1 to 63 bits: never negative before the sign below, so negating cannot overflow.
    const auto bits = 1 + static_cast<int>(rng() % 63);
    values.push_back(static_cast<std::int64_t>(rng() >> (64 - bits)) * (i % 2 ? -1 : 1));
  }
  for (std::int64_t v : values) {
    std::array<char, kJsonIntMaxBytes + 8> buf;
    buf.fill('#');
    const std::size_t n = format_json_int(v, buf.data());
    ASSERT_EQ(std::string(buf.data(), n), std::to_string(v));
    EXPECT_EQ(std::string(buf.data() + n, buf.size() - n), std::string(buf.size() - n, '#')) << v;
    std::string out = "x";
    put_json_int(v, out);
    EXPECT_EQ(out, "x" + std::to_string(v));
  }
}

// The word-at-a-time check gives the byte-by-byte rule (printable ASCII without `"` or `\`) for
// every byte value at every position of texts up to twenty bytes (across the word boundaries and
// the overlapping last word), and for random texts.
TEST(JsonText, PlainTextFollowsTheByteRuleAtEveryPosition) {
  const auto plain = [](unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; };
  for (std::size_t size = 1; size <= 40; ++size) {
    for (std::size_t at = 0; at < size; ++at) {
      for (int c = 0; c < 256; ++c) {
        std::string text(size, 'a');
        text[at] = static_cast<char>(c);
        ASSERT_EQ(is_plain_json_text(text), plain(static_cast<unsigned char>(c)))
            << "size " << size << " at " << at << " byte " << c;
      }
    }
  }
  EXPECT_TRUE(is_plain_json_text(""));
  std::mt19937 rng(7);
  for (int i = 0; i < 20'000; ++i) {
    std::string text(rng() % 48, ' ');
    // Mostly plain characters, so that a text is plain often enough to matter.
    for (char& ch : text) ch = static_cast<char>(rng() % 16 ? 0x20 + rng() % 0x60 : rng() % 256);
    const bool expected = std::all_of(
        text.begin(), text.end(), [&](char ch) { return plain(static_cast<unsigned char>(ch)); });
    ASSERT_EQ(is_plain_json_text(text), expected) << text;
  }
}

TEST(JsonText, ObjectMembersInOrderWithCommas) {
  std::string out;
  JsonObjectText o(out);
  EXPECT_TRUE(o.empty());
  o.integer("a", -3);
  EXPECT_FALSE(o.empty());
  o.number("b", 0.5);
  o.string("c", "q\"\n\xff");
  o.boolean("d", false);
  o.member("e") += "null";
  JsonObjectText inner(o.member("f"));
  inner.close();
  o.close();
  nlohmann::ordered_json ref;
  ref["a"] = -3;
  ref["b"] = 0.5;
  ref["c"] = "q\"\n\xff";
  ref["d"] = false;
  ref["e"] = nullptr;
  ref["f"] = nlohmann::ordered_json::object();
  EXPECT_EQ(out, ref.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  EXPECT_EQ(out,
            "{\"a\":-3,\"b\":0.5,\"c\":\"q\\\"\\n\xEF\xBF\xBD\",\"d\":false,\"e\":null,\"f\":{}}");
}

// member() assembles `,"k":` on the stack up to 60 characters; a longer key takes the plain path.
// Both sides of that limit, first and later members, with the same bytes as nlohmann's.
TEST(JsonText, KeysOfEveryLengthAroundTheStackBuffer) {
  for (std::size_t len : {0u, 1u, 59u, 60u, 61u, 62u, 200u}) {
    const std::string key(len, 'k');
    std::string out;
    JsonObjectText o(out);
    o.member(key) += "true";
    o.integer(key + "2", 7);
    o.member(key + "3") += "false";
    o.close();
    nlohmann::ordered_json ref;
    ref[key] = true;
    ref[key + "2"] = 7;
    ref[key + "3"] = false;
    EXPECT_EQ(out, ref.dump()) << len;
  }
}

// Adds a member of `kind` (0 a string, 1 an integer, 2 a boolean) to the object and to nlohmann's.
void add_member(int kind, const std::string& key, const std::string& value, JsonObjectText& o,
                nlohmann::ordered_json& ref) {
  const std::int64_t widest = std::numeric_limits<std::int64_t>::min();
  switch (kind) {
    case 0:
      o.string(key, value);
      ref[key] = value;
      break;
    case 1:
      o.integer(key, widest);
      ref[key] = widest;
      break;
    default:
      o.boolean(key, false);
      ref[key] = false;
  }
}

// Integer, boolean and plain string members are staged with their key (512 bytes) and written out
// when the next does not fit: each kind as the first member with the room it asks for (a string's
// exact, an integer's with the widest number, a boolean's with "false") from below the whole
// stage to past it, and as a later member after a first one that leaves the stage at every
// offset (so some end exactly at its end and close() finds it full); strings with and without
// something to escape. The same bytes as nlohmann's either way.
TEST(JsonText, MembersStagedAroundTheStageLimit) {
  const std::string tails[] = {"", "\\", "\x7f"};  // DEL is kept as it is, as nlohmann keeps it
  for (int kind = 0; kind < 3; ++kind) {
    for (const std::string& tail : tails) {
      // First: `{` staged, then a member asking for `room` bytes (string `,"k":"v"` is the key
      // and value and 6, an integer key and 24, a boolean "false" key and 9), then a short one.
      for (std::size_t room = 505; room <= 514; ++room) {
        const std::size_t key_len = kind == 0 ? 1 : room - (kind == 1 ? 24 : 9);
        const std::string value = std::string(kind == 0 ? room - 7 : 0, 'v') + tail;
        std::string out;
        JsonObjectText o(out);
        nlohmann::ordered_json ref;
        add_member(kind, std::string(key_len, 'k'), value, o, ref);
        add_member((kind + 1) % 3, "next", "n", o, ref);
        o.close();
        ASSERT_EQ(out, ref.dump()) << kind << " " << room << " " << tail.size();
      }
      // Later: after a first string member (`{"f":"…"`: 7 bytes more than its value, staged up to
      // a value of 504 bytes; beyond that the `{` is written out and the member staged alone or,
      // past the stage, written directly), so the stage ends at every offset from 7 to 511.
      for (std::size_t fill = 0; fill <= 512; ++fill) {
        for (std::size_t size : {3u, 40u}) {
          std::string out;
          JsonObjectText o(out);
          nlohmann::ordered_json ref;
          add_member(0, "f", std::string(fill, 'v'), o, ref);
          add_member(kind, std::string(size, 'k'), std::string(size, 'w') + tail, o, ref);
          o.close();
          ASSERT_EQ(out, ref.dump()) << kind << " " << fill << " " << size << " " << tail.size();
        }
      }
    }
  }
}

// Random sequences of every kind of member, nested objects and values appended through member()
// among them, keys and values of every length around the stage's: what is staged reaches `out` in
// order, with the bytes nlohmann writes for the same object.
TEST(JsonText, StagedAndDirectMembersKeepTheirOrder) {
  std::mt19937_64 rng(7);
  // Half the texts plain (staged when they fit), half with something to escape now and then.
  auto text = [&](std::size_t max) {
    std::string t(rng() % max, 'a');
    const bool plain = rng() % 2 == 0;
    for (char& ch : t)
      ch = plain || rng() % 50 ? static_cast<char>('a' + rng() % 26) : "\"\\\n\x01"[rng() % 4];
    return t;
  };
  for (int round = 0; round < 300; ++round) {
    std::string out = "prefix";
    nlohmann::ordered_json ref = nlohmann::ordered_json::object();
    JsonObjectText o(out);
    const int members = static_cast<int>(rng() % 40);
    for (int m = 0; m < members; ++m) {
      // Unique keys (nlohmann's object keeps one of each); plain, as the writers' keys are.
      const std::string key =
          std::string(rng() % 3 ? rng() % 12 : rng() % 520, 'k') + std::to_string(m);
      switch (rng() % 6) {
        case 0: {
          const auto v = static_cast<std::int64_t>(rng());
          o.integer(key, v);
          ref[key] = v;
          break;
        }
        case 1: {
          const std::string v = text(rng() % 4 ? 16 : 700);
          o.string(key, v);
          ref[key] = v;
          break;
        }
        case 2:
          o.boolean(key, m % 2 == 0);
          ref[key] = m % 2 == 0;
          break;
        case 3:
          o.number(key, 0.25 * m);
          ref[key] = 0.25 * m;
          break;
        case 4:
          o.member(key) += "null";
          ref[key] = nullptr;
          break;
        default: {
          JsonObjectText inner(o.member(key));
          inner.integer("x", m);
          inner.string("y", "z");
          inner.close();
          ref[key] = {{"x", m}, {"y", "z"}};
        }
      }
    }
    o.close();
    ASSERT_EQ(out, "prefix" + ref.dump()) << round;
  }
}

}  // namespace
}  // namespace inferperf::records
