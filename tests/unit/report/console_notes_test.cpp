// The console notes: warning panels appear exactly when their counts are non-zero, and known
// server complaints get their advice.
#include "report/console_notes.hpp"

#include <gtest/gtest.h>

namespace inferperf::report {
namespace {

bool has(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

TEST(ConsoleNotes, TokenWarningsOnlyWhenCounted) {
  metrics::BenchmarkResult r;
  r.valid_count = 10;
  metrics::MetricOptions o;
  EXPECT_EQ(render_token_warnings(r, o), "");
  r.osl_mismatches = 3;
  const std::string osl = render_token_warnings(r, o);
  EXPECT_TRUE(has(osl, "Output Sequence Length Mismatch Warning"));
  EXPECT_TRUE(has(osl, "3 of 10 requests"));
  EXPECT_TRUE(has(osl, "ignore_eos"));
  EXPECT_FALSE(has(osl, "Token Count Discrepancy"));
  r.osl_mismatches = 0;
  r.usage_discrepancies = 2;
  const std::string usage = render_token_warnings(r, o);
  EXPECT_TRUE(has(usage, "Token Count Discrepancy Warning"));
  EXPECT_TRUE(has(usage, "2 of 10 requests"));
  EXPECT_TRUE(has(usage, "more than 10 %"));
}

TEST(ConsoleNotes, AdviceForKnownServerComplaints) {
  metrics::BenchmarkResult r;
  EXPECT_EQ(render_error_advice(r), "");
  r.errors.push_back({400, "BadRequestError",
                      "[{'type': 'extra_forbidden', 'loc': ('body', 'max_completion_tokens'), "
                      "'msg': 'Extra inputs are not permitted'}]",
                      5});
  const std::string advice = render_error_advice(r);
  EXPECT_TRUE(has(advice, "Unsupported Parameter: max_completion_tokens"));
  EXPECT_TRUE(has(advice, "--use-legacy-max-tokens"));
  r.errors = {{404, "NotFoundError", "The model `llama` does not exist.", 1}};
  EXPECT_TRUE(has(render_error_advice(r), "Unknown Model"));
  r.errors = {{500, "InternalServerError", "boom", 1}};
  EXPECT_EQ(render_error_advice(r), "");
}

}  // namespace
}  // namespace inferperf::report
