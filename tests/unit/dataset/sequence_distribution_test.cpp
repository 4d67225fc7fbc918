// --seq-dist parsing and sampling.
#include <gtest/gtest.h>

#include "dataset/sequence_distribution.hpp"

namespace inferperf::dataset {
namespace {

TEST(SequenceDistribution, SemicolonFormWithStddevs) {
  auto d = parse_sequence_distribution("512,64:60; 1024|100,128|8:40");
  ASSERT_TRUE(d.ok()) << d.error().describe();
  ASSERT_EQ(d->pairs.size(), 2u);
  EXPECT_EQ(d->pairs[0].isl, 512);
  EXPECT_EQ(d->pairs[0].osl, 64);
  EXPECT_DOUBLE_EQ(d->pairs[0].probability, 60.0);
  EXPECT_EQ(d->pairs[1].isl, 1024);
  EXPECT_DOUBLE_EQ(d->pairs[1].isl_stddev, 100.0);
  EXPECT_EQ(d->pairs[1].osl, 128);
  EXPECT_DOUBLE_EQ(d->pairs[1].osl_stddev, 8.0);
}

TEST(SequenceDistribution, BracketAndJsonForms) {
  auto b = parse_sequence_distribution("[(256,32):25,(512,64):75]");
  ASSERT_TRUE(b.ok()) << b.error().describe();
  ASSERT_EQ(b->pairs.size(), 2u);
  EXPECT_EQ(b->pairs[1].isl, 512);
  EXPECT_DOUBLE_EQ(b->pairs[1].probability, 75.0);
  auto j = parse_sequence_distribution(
      R"({"pairs":[{"isl":100,"osl":10,"prob":50,"isl_stddev":5},{"isl":200,"osl":20,"prob":50}]})");
  ASSERT_TRUE(j.ok()) << j.error().describe();
  EXPECT_DOUBLE_EQ(j->pairs[0].isl_stddev, 5.0);
  EXPECT_EQ(j->pairs[1].osl, 20);
}

TEST(SequenceDistribution, RejectsBadInput) {
  for (const char* bad : {"", "512,64", "512:100", "512,64:50", "abc,64:100", "0,64:100",
                          "512,64:-1;1,1:101", R"({"pairs":[{"isl":1}]})"}) {
    auto d = parse_sequence_distribution(bad);
    EXPECT_FALSE(d.ok()) << bad;
    if (!d.ok()) {
      EXPECT_NE(d.error().message.find("--seq-dist"), std::string::npos);
    }
  }
}

TEST(SequenceDistribution, PickFollowsProbabilities) {
  auto d = parse_sequence_distribution("10,1:20;20,2:80");
  ASSERT_TRUE(d.ok());
  std::mt19937_64 rng(9);
  int first = 0;
  for (int i = 0; i < 10000; ++i) first += d->pick(rng).isl == 10;
  EXPECT_NEAR(first / 10000.0, 0.2, 0.02);
}

}  // namespace
}  // namespace inferperf::dataset
