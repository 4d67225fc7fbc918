// The dataset memory budget and bounded error quotes, end to end (issue 25 rows 2 and 4): a
// prompt length or a trace row that would exhaust the host is refused in well under a second with
// the estimate and the limit, and a huge invalid line costs a short line of stderr. Exit 2 and
// nothing sent in every case.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

std::vector<std::string> profile(const MockServerProcess& mock, const std::string& dir,
                                 std::vector<std::string> extra) {
  std::vector<std::string> a = {INFERPERF_BIN, "profile",        "-m",        "mock-model", "-u",
                                mock.url(),    "--artifact-dir", dir + "/out"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(MemoryBudget, HugeIslIsRefusedAtOnceWithTheEstimateAndTheLimit) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-budget-isl-");
  // The case (it grew to 24 GB until the OOM killer): refused up front, never bad_alloc.
  auto r = run_process(profile(mock, dir, {"--isl", "2000000000", "--request-count", "10"}),
                       std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_LT(r.wall_s, 5.0) << r.out;
  EXPECT_NE(r.out.find("--isl"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;

  // Within --isl's range, but 10 x 10M tokens (AIPerf 0.11 sizes the dataset from the typed
  // --request-count) is ~1.4 GiB in memory (o200k): over a 1 GiB limit.
  auto big = run_process(
      profile(mock, dir,
              {"--isl", "10000000", "--max-dataset-memory", "1G", "--request-count", "10"}),
      std::chrono::seconds(30));
  EXPECT_EQ(big.exit_code, 2) << big.out;
  EXPECT_LT(big.wall_s, 5.0) << big.out;  // no prompt is generated
  EXPECT_NE(big.out.find("--isl 10000000 with --num-dataset-entries 10 would make a dataset of "
                         "about "),
            std::string::npos)
      << big.out;
  EXPECT_NE(big.out.find("but --max-dataset-memory is 1.0 GiB: lower --isl or "
                         "--num-dataset-entries or raise --max-dataset-memory"),
            std::string::npos)
      << big.out;

  // The default budget (half the physical memory) refuses a few terabytes of prompts.
  auto dflt = run_process(
      profile(mock, dir,
              {"--isl", "10000000", "--num-dataset-entries", "100000", "--request-count", "10"}),
      std::chrono::seconds(30));
  EXPECT_EQ(dflt.exit_code, 2) << dflt.out;
  EXPECT_NE(dflt.out.find("half the physical memory; --max-dataset-memory sets it"),
            std::string::npos)
      << dflt.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

// Media count too: 100 turns of two 8000x8000 noise pictures (about 3 bytes a pixel, as base64)
// are over 30 GiB, refused against a 1 GiB limit before one picture is drawn.
TEST(MemoryBudget, MediaAreInTheEstimate) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-budget-media-");
  auto r = run_process(
      profile(mock, dir,
              {"--image-batch-size", "2", "--image-width-mean", "8000", "--image-height-mean",
               "8000", "--num-dataset-entries", "100", "--max-dataset-memory", "1G",
               "--request-count", "1", "--tokenizer", "builtin"}),
      std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_LT(r.wall_s, 5.0) << r.out;
  EXPECT_NE(r.out.find("2 8000x8000 pictures a turn would make a dataset of about"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(", media "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the media sizes or batch sizes"), std::string::npos) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(MemoryBudget, AbsurdTraceRowIsRefusedByFileAndLine) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-budget-row-");
  const std::string trace = write_file(dir + "/trace.jsonl",
                                       "{\"input_length\": 100, \"output_length\": 4}\n"
                                       "{\"input_length\": 200000000, \"output_length\": 4}\n");
  auto r = run_process(profile(mock, dir, {"--input-file", trace}), std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_LT(r.wall_s, 5.0) << r.out;
  EXPECT_NE(r.out.find("trace.jsonl:2: field 'input_length': asks for 200000000 prompt tokens"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;

  // Rows that each look sane but together exceed the budget: refused at the crossing line.
  std::string rows;
  for (int i = 0; i < 10; ++i) rows += "{\"input_length\": 1000000, \"output_length\": 4}\n";
  const std::string many = write_file(dir + "/many.jsonl", rows);
  auto total =
      run_process(profile(mock, dir, {"--input-file", many, "--max-dataset-memory", "16M"}),
                  std::chrono::seconds(30));
  EXPECT_EQ(total.exit_code, 2) << total.out;
  // 1M tokens are 4-6 MB of text for common tokenizers: the 16 MiB budget is crossed on line 3
  // or 4, not on the first (each row alone fits) and not past the file's end.
  EXPECT_TRUE(std::regex_search(
      total.out, std::regex("many\\.jsonl:[34]: field 'input_length': the rows up to this one "
                            "ask for about [0-9.]+ MiB of prompt text, more than the dataset "
                            "memory budget of 16\\.0 MiB")))
      << total.out;
  EXPECT_NE(total.out.find("16.0 MiB"), std::string::npos) << total.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(MemoryBudget, HugeInvalidLineIsQuotedAsAShortExcerpt) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-budget-line-");
  std::string line = "{\"text\": \"";
  line.reserve(5'000'100);
  while (line.size() < 5'000'000) line += "word ";
  const std::string file = write_file(dir + "/big.jsonl", "{\"text\": \"fine\"}\n" + line + "\n");
  auto r = run_process(profile(mock, dir, {"--input-file", file}), std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out.substr(0, 2000);
  EXPECT_LT(r.out.size(), 1024u) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("big.jsonl:2: invalid JSON at column"), std::string::npos) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

// Under the budget but beyond what the process may map (ulimit -v): the allocation failure in the
// generator threads becomes one clear line and exit 2, not "terminate called ... bad_alloc".
TEST(MemoryBudget, OutOfMemoryWhileGeneratingIsAClearMessage) {
  if (INFERPERF_SANITIZER_BUILD) GTEST_SKIP() << "sanitizers reserve more than the ulimit";
  const std::string dir = make_temp_dir("ip-budget-oom-");
  // 1,000 prompts of 10M words (~50 GB) with a 1 TiB budget, in 300 MB of address space.
  auto r = run_process({"/bin/sh", "-c",
                        "ulimit -v 300000 && exec \"$0\" profile -m mock-model -u "
                        "http://127.0.0.1:1 --use-server-token-count --isl 10000000 "
                        "--num-dataset-entries 1000 --max-dataset-memory 1T --request-count 1 "
                        "--artifact-dir \"$1\"",
                        INFERPERF_BIN, dir + "/out"},
                       std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("error: out of memory while generating the dataset (the dataset memory "
                       "budget is 1.0 TiB)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("terminate"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace inferperf::testing
