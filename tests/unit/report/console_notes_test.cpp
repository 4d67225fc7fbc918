// The console notes: warning panels appear exactly when their counts are non-zero, and known
// server complaints get their advice.
#include "report/console_notes.hpp"

#include <gtest/gtest.h>

namespace inferperf::report {
namespace {

bool has(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

// A valid record asking for `req` tokens: the client counted `client_in`/`client_out`, the server
// reported `server_in`/`server_out` (0: no usage).
records::RequestRecord counted(int req, int client_in, int client_out, int server_in,
                               int server_out) {
  records::RequestRecord r;
  r.requested_osl = req;
  r.client_tokens.input = client_in;
  r.client_tokens.output = client_out;
  if (server_in) r.usage.prompt_tokens = server_in;
  if (server_out) r.usage.completion_tokens = server_out;
  return r;
}

metrics::BenchmarkResult result_of(const std::vector<records::RequestRecord>& recs,
                                   std::int64_t osl_mismatches, std::int64_t discrepancies) {
  metrics::BenchmarkResult r;
  metrics::MetricOptions o;
  o.token_source = metrics::TokenSource::kClientTokenizer;
  for (const auto& rec : recs) {
    r.token_facts.push_back(metrics::token_facts_of(rec));
    metrics::add_osl_split(rec, o, r.osl_split);
  }
  r.valid_count = static_cast<std::int64_t>(recs.size());
  r.osl_mismatches = osl_mismatches;
  r.usage_discrepancies = discrepancies;
  return r;
}

ReportContext sent(const char* key, nlohmann::json value) {
  ReportContext ctx;
  ctx.input_config = {{"input", {{"extra", nlohmann::json::array({{key, value}})}}}};
  return ctx;
}

metrics::MetricOptions client_counts() {
  metrics::MetricOptions o;
  o.token_source = metrics::TokenSource::kClientTokenizer;
  return o;
}

TEST(ConsoleNotes, TokenWarningsOnlyWhenCounted) {
  const auto o = client_counts();
  EXPECT_EQ(render_token_warnings(result_of({}, 0, 0), o, {}), "");
  // Shorter outputs: the server stopped early; ignore_eos is advised when it was not sent.
  const std::vector<records::RequestRecord> short_out = {counted(64, 100, 20, 0, 0),
                                                         counted(64, 100, 64, 0, 0)};
  const std::string osl = render_token_warnings(result_of(short_out, 1, 0), o, {});
  EXPECT_TRUE(has(osl, "Output Sequence Length Mismatch Warning")) << osl;
  EXPECT_TRUE(has(osl, "1 of 2 requests")) << osl;
  EXPECT_TRUE(has(osl, "- 1 shorter: the server stopped before max tokens")) << osl;
  EXPECT_TRUE(has(osl, "Pass --extra-inputs ignore_eos:true")) << osl;
  EXPECT_FALSE(has(osl, "Token Count Discrepancy"));
  // ignore_eos was sent: never advised again.
  const std::string given =
      render_token_warnings(result_of(short_out, 1, 0), o, sent("ignore_eos", true));
  EXPECT_FALSE(has(given, "Pass --extra-inputs ignore_eos")) << given;
  EXPECT_TRUE(has(given, "ignore_eos was sent")) << given;
}

TEST(ConsoleNotes, LongerOutputsCountedOnlyByTheClientAreANoteNotAWarning) {
  const auto o = client_counts();
  // 64 asked, the server generated 64 (usage), the client's re-tokenization counts 74.
  const std::vector<records::RequestRecord> recs = {counted(64, 100, 74, 101, 64),
                                                    counted(64, 100, 64, 101, 64)};
  const std::string out = render_token_warnings(result_of(recs, 1, 0), o, sent("ignore_eos", true));
  EXPECT_FALSE(has(out, "Warning")) << out;
  EXPECT_TRUE(has(out, "note: 1 output(s) count more tokens with the client tokenizer")) << out;
  // Longer by the server's own count too: the server ignored max tokens.
  const std::vector<records::RequestRecord> over = {counted(64, 100, 90, 101, 90)};
  const std::string warn = render_token_warnings(result_of(over, 1, 0), o, {});
  EXPECT_TRUE(has(warn, "- 1 longer: the server generated more than max tokens")) << warn;
  EXPECT_FALSE(has(warn, "ignore_eos")) << warn;
}

TEST(ConsoleNotes, AConstantPromptOffsetIsLearnedAndOnlyTheRestWarns) {
  const auto o = client_counts();
  // The server adds a BOS token to every prompt: +1 on 20-token prompts is 5 %, on 5-token
  // prompts 20 % (counted by the metric), explained by the offset.
  std::vector<records::RequestRecord> recs = {counted(8, 5, 8, 6, 8), counted(8, 5, 8, 6, 8),
                                              counted(8, 20, 8, 21, 8)};
  std::string out = render_token_warnings(result_of(recs, 0, 2), o, {});
  EXPECT_TRUE(has(out,
                  "note: the server counts +1 prompt token(s) more than the client tokenizer "
                  "on 3 of 3 requests"))
      << out;
  EXPECT_FALSE(has(out, "Warning")) << out;
  // One prompt the offset does not explain: warned about alone.
  recs.push_back(counted(8, 5, 8, 9, 8));
  out = render_token_warnings(result_of(recs, 0, 3), o, {});
  EXPECT_TRUE(has(out, "Token Count Discrepancy Warning")) << out;
  EXPECT_TRUE(has(out, "1 of 4 requests")) << out;
  EXPECT_TRUE(has(out, "after the +1 prompt offset")) << out;
  // An output the server generated as asked but the client counts longer (re-tokenization) is
  // the OSL note's, not a discrepancy: +1 prompt offset, 64 asked, 64 generated, 74 counted.
  const std::vector<records::RequestRecord> retok = {counted(64, 100, 74, 101, 64),
                                                     counted(64, 100, 64, 101, 64)};
  out = render_token_warnings(result_of(retok, 1, 1), o, {});
  EXPECT_FALSE(has(out, "Token Count Discrepancy Warning")) << out;
  // The same with no prompt offset (completions without a BOS): nothing to warn about either.
  const std::vector<records::RequestRecord> bare = {counted(64, 100, 74, 100, 64),
                                                    counted(64, 100, 64, 100, 64)};
  out = render_token_warnings(result_of(bare, 1, 1), o, {});
  EXPECT_FALSE(has(out, "Token Count Discrepancy Warning")) << out;
  EXPECT_FALSE(has(out, "prompt token(s) more")) << out;
  // No constant offset: the metric's count is the warning's.
  const std::vector<records::RequestRecord> mixed = {counted(8, 10, 8, 14, 8),
                                                     counted(8, 10, 8, 17, 8)};
  out = render_token_warnings(result_of(mixed, 0, 2), o, {});
  EXPECT_TRUE(has(out, "2 of 2 requests")) << out;
  EXPECT_TRUE(has(out, "more than 10 %")) << out;
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
