// core: seeded streams, positive normal sampling, uuid4, clocks, errors.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/file_names.hpp"
#include "core/rng.hpp"
#include "core/uuid.hpp"

namespace {

using namespace inferperf::core;

TEST(DeriveSeed, IsSha256PrefixOfRootColonIdentifier) {
  // First 8 bytes (big-endian) of sha256("42:dataset") etc., computed with Python's hashlib.
  EXPECT_EQ(derive_seed(42, "dataset"), 8899168338060173105ULL);
  EXPECT_EQ(derive_seed(42, "timing"), 17393751512805211756ULL);
  EXPECT_EQ(derive_seed(43, "dataset"), 14539192396505637565ULL);
  EXPECT_EQ(derive_seed(0, ""), 13436079590000323820ULL);
}

TEST(DeriveSeed, DeterministicAndDistinctPerIdentifier) {
  EXPECT_EQ(derive_seed(7, "a"), derive_seed(7, "a"));
  std::set<std::uint64_t> seen;
  for (const char* id : {"a", "b", "dataset", "timing", "dataset.isl", "dataset.osl"}) {
    EXPECT_TRUE(seen.insert(derive_seed(7, id)).second) << id;
  }
  EXPECT_NE(derive_seed(7, "a"), derive_seed(8, "a"));
}

TEST(RngFactory, StreamIsSeededWithDerivedSeed) {
  RngFactory f(42);
  EXPECT_EQ(f.root_seed(), 42u);
  auto s = f.stream("dataset");
  std::mt19937_64 expected(8899168338060173105ULL);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(s(), expected());
  auto a = f.stream("x");
  auto b = f.stream("x");
  EXPECT_EQ(a(), b());
}

struct PositiveNormalCase {
  double mean;
  int expected;
};

TEST(SamplePositiveNormalInt, ZeroStddevRoundsMeanAtLeastOne) {
  const std::vector<PositiveNormalCase> table = {{550, 550}, {5.4, 5}, {5.5, 6}, {5.6, 6},
                                                 {1, 1},     {0.4, 1}, {0, 1},   {-3, 1}};
  std::mt19937_64 rng(1);
  for (const auto& c : table) {
    EXPECT_EQ(sample_positive_normal_int(rng, c.mean, 0.0), c.expected) << c.mean;
    EXPECT_EQ(sample_positive_normal_int(rng, c.mean, -1.0), c.expected) << c.mean;
  }
}

TEST(SamplePositiveNormalInt, WithStddevIsPositiveAndCentred) {
  std::mt19937_64 rng(123);
  double sum = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const int v = sample_positive_normal_int(rng, 100, 10);
    ASSERT_GE(v, 1);
    sum += v;
  }
  // ceil adds ~0.5 on average; the standard error of the mean is 10/sqrt(4000) ~ 0.16.
  EXPECT_NEAR(sum / n, 100.5, 1.0);
  std::mt19937_64 low(5);
  for (int i = 0; i < 1000; ++i) ASSERT_GE(sample_positive_normal_int(low, 0.5, 3), 1);
}

TEST(SamplePositiveNormalInt, SameSeedSameSequence) {
  std::mt19937_64 a(9), b(9);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(sample_positive_normal_int(a, 50, 20), sample_positive_normal_int(b, 50, 20));
  }
}

TEST(Uuid4, FormatVersionAndVariant) {
  const std::regex re("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::mt19937_64 rng(77);
  std::set<std::string> seen;
  for (int i = 0; i < 500; ++i) {
    const std::string a = uuid4(rng);
    ASSERT_EQ(a.size(), 36u);
    EXPECT_TRUE(std::regex_match(a, re)) << a;
    EXPECT_TRUE(seen.insert(a).second) << a;
    const std::string b = uuid4();
    EXPECT_TRUE(std::regex_match(b, re)) << b;
    EXPECT_TRUE(seen.insert(b).second) << b;
  }
}

// What uuid4 makes of two draws, printed digit by digit by the C library.
std::string printed_uuid(std::uint64_t hi, std::uint64_t lo) {
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08llx-%04llx-%04llx-%04llx-%012llx",
                static_cast<unsigned long long>(hi >> 32),
                static_cast<unsigned long long>((hi >> 16) & 0xFFFF),
                static_cast<unsigned long long>((hi & 0x0FFF) | 0x4000),
                static_cast<unsigned long long>(((lo >> 48) & 0x3FFF) | 0x8000),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return buf;
}

TEST(Uuid4, SeededIsReproducibleAndUsesEveryNibble) {
  std::mt19937_64 a(1), b(1);
  EXPECT_EQ(uuid4(a), uuid4(b));
  // Built from two draws: hi = first, lo = second, with version and variant bits forced.
  std::mt19937_64 c(1);
  const std::uint64_t hi = c();
  const std::uint64_t lo = c();
  std::mt19937_64 d(1);
  const std::string u = uuid4(d);
  EXPECT_EQ(u, printed_uuid(hi, lo));
  // Many draws: each of the 16 digit values at every free position about 300 times.
  std::mt19937_64 e(5), f(5);
  for (int i = 0; i < 5'000; ++i) {
    const std::uint64_t h = e();
    const std::uint64_t l = e();
    ASSERT_EQ(uuid4(f), printed_uuid(h, l));
  }
}

TEST(FakeClock, SetAndAdvance) {
  FakeClock c(100);
  EXPECT_EQ(c.now_ns(), 100);
  c.advance_ns(50);
  EXPECT_EQ(c.now_ns(), 150);
  c.set_ns(7);
  EXPECT_EQ(c.now_ns(), 7);
  const Clock& base = c;
  EXPECT_EQ(base.now_ns(), 7);
  EXPECT_EQ(FakeClock().now_ns(), 0);
}

TEST(SteadyClock, NeverGoesBackwards) {
  SteadyClock c;
  MonoNs prev = c.now_ns();
  EXPECT_GT(prev, 0);
  for (int i = 0; i < 1000; ++i) {
    const MonoNs now = c.now_ns();
    ASSERT_GE(now, prev);
    prev = now;
  }
}

TEST(WallAnchor, ToWallArithmetic) {
  const WallAnchor a{1'000, 1'700'000'000'000'000'000};
  EXPECT_EQ(a.to_wall(1'000), 1'700'000'000'000'000'000);
  EXPECT_EQ(a.to_wall(1'500), 1'700'000'000'000'000'500);
  EXPECT_EQ(a.to_wall(400), 1'699'999'999'999'999'400);
  const WallAnchor identity{5, 5};
  EXPECT_EQ(identity.to_wall(123456789), 123456789);
}

TEST(WallAnchor, CapturePairsNowWithNow) {
  const auto before_wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  const MonoNs before_mono = SteadyClock::steady_now_ns();
  const WallAnchor a = WallAnchor::capture();
  const MonoNs after_mono = SteadyClock::steady_now_ns();
  EXPECT_GE(a.mono_ns, before_mono);
  EXPECT_LE(a.mono_ns, after_mono);
  EXPECT_GE(a.wall_ns, before_wall);
  EXPECT_LT(a.wall_ns - before_wall, 1'000'000'000);  // within a second
}

TEST(Error, Describe) {
  EXPECT_EQ((Error{ErrorKind::kInput, "bad value", "data.jsonl", 3, "text"}).describe(),
            "data.jsonl:3: field 'text': bad value");
  EXPECT_EQ((Error{ErrorKind::kInput, "bad value", "data.jsonl", 0, ""}).describe(),
            "data.jsonl: bad value");
  EXPECT_EQ((Error{ErrorKind::kConfig, "oops"}).describe(), "oops");
  EXPECT_EQ((Error{ErrorKind::kConfig, "oops", "", 0, "url"}).describe(), "field 'url': oops");
}

TEST(Result, HoldsValueOrError) {
  Result<int> ok = 5;
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(static_cast<bool>(ok));
  EXPECT_EQ(*ok, 5);
  Result<int> bad = Error{ErrorKind::kIo, "io"};
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kIo);
  EXPECT_EQ(bad.error().message, "io");
}

}  // namespace

namespace {

TEST(Excerpt, ShortTextIsQuotedWhole) {
  EXPECT_EQ(inferperf::core::excerpt("abc"), "abc");
}

TEST(Excerpt, LongTextIsCutToTheLimitWithItsSize) {
  const std::string big(200'000'000, 'w');
  const std::string e = inferperf::core::excerpt(big);
  EXPECT_EQ(e, std::string(200, 'w') + "... (200000000 bytes)");
}

TEST(Excerpt, NeverSplitsACharacterAndHidesControlCharacters) {
  // 199 ASCII bytes then a 2-byte character: the cut backs up before it.
  const std::string text = std::string(199, 'a') + "\xC3\xA9" + "tail";
  EXPECT_EQ(inferperf::core::excerpt(text), std::string(199, 'a') + "... (205 bytes)");
  EXPECT_EQ(inferperf::core::excerpt("a\x1b[2Jb\n"), "a?[2Jb?");
}

}  // namespace

namespace inferperf::core {
namespace {

TEST(FileNames, ImageExtensions) {
  EXPECT_TRUE(has_image_extension("a/b.png"));
  EXPECT_TRUE(has_image_extension("x.JPG"));
  EXPECT_TRUE(has_image_extension("x.Jpeg"));
  EXPECT_FALSE(has_image_extension("x.gif"));
  EXPECT_FALSE(has_image_extension("png"));
  EXPECT_FALSE(has_image_extension("x.png.txt"));
  EXPECT_FALSE(has_image_extension(".png"));
  EXPECT_FALSE(has_image_extension("a.png/b"));
}

}  // namespace
}  // namespace inferperf::core
