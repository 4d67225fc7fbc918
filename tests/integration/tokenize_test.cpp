// `inferperf tokenize` run as a process with the builtin (o200k) tokenizer. Expected ids come from
// tests/data/tokenizer/gpt4o.vectors.jsonl, written by the JavaScript reference implementation (the
// builtin file is the gpt4o one), so they are not the binary checked against itself.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;

struct Vector {
  std::string text;
  std::vector<std::int32_t> ids;
};

// Line `index` (0-based) of the gpt4o reference vectors.
Vector reference_vector(std::size_t index) {
  std::ifstream in(std::string(INFERPERF_SOURCE_DIR) + "/tests/data/tokenizer/gpt4o.vectors.jsonl");
  std::string line;
  for (std::size_t i = 0; i <= index; ++i) std::getline(in, line);
  const auto j = nlohmann::json::parse(line);
  return {j.at("text").get<std::string>(), j.at("ids").get<std::vector<std::int32_t>>()};
}

std::string joined(const std::vector<std::int32_t>& ids) {
  std::string out;
  for (const auto id : ids) out += (out.empty() ? "" : " ") + std::to_string(id);
  return out;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class Tokenize : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("ip-tokenize-");
    const fs::path builtin = fs::path(INFERPERF_BIN).parent_path().parent_path() /
                             "share/inferperf/tokenizers/builtin/tokenizer.json";
    ASSERT_TRUE(fs::exists(builtin)) << builtin << " missing: run scripts/fetch-tokenizers.sh";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  // The Hugging Face cache is pointed at the empty temp folder and downloads are off, so nothing
  // outside the test is read or fetched.
  ProcessResult run(std::vector<std::string> args) {
    args.insert(args.begin(), {INFERPERF_BIN, "tokenize"});
    return run_process(args, std::chrono::seconds(60), "", {"HF_HOME=" + dir_, "HF_HUB_OFFLINE=1"});
  }
  std::string dir_;
};

// "The quick brown fox jumps over the lazy dog.": 10 tokens; the default output is the count alone.
TEST_F(Tokenize, CountsAsTheReference) {
  const Vector v = reference_vector(0);
  ASSERT_EQ(v.ids.size(), 10u);
  const auto r = run({"--tokenizer", "builtin", v.text});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "10\n");
}

// A text ending in blank lines gives the same count from TEXT, --file, stdin and "-": nothing is
// stripped (the four newlines are tokens of their own).
TEST_F(Tokenize, TextFileAndStdinAgree) {
  const Vector v = reference_vector(68);  // "emoji inside words: pre😀post and 🚀launch🚀 \n\n\n\n"
  ASSERT_EQ(v.text.substr(v.text.size() - 4), "\n\n\n\n");
  const std::string expected = std::to_string(v.ids.size()) + "\n";
  const std::string path = write("text.txt", v.text);
  const auto from_arg = run({"--tokenizer", "builtin", v.text});
  const auto from_file = run({"--tokenizer", "builtin", "--file", path});
  // run_process gives the child /dev/null as stdin: a shell redirects the file instead.
  const std::string bin = INFERPERF_BIN;
  const auto from_stdin =
      run_process({"/bin/sh", "-c", "exec \"$0\" tokenize --tokenizer builtin < \"$1\"", bin, path},
                  std::chrono::seconds(60));
  const auto from_dash = run_process(
      {"/bin/sh", "-c", "exec \"$0\" tokenize --tokenizer builtin - < \"$1\"", bin, path},
      std::chrono::seconds(60));
  for (const auto* r : {&from_arg, &from_file, &from_stdin, &from_dash}) {
    EXPECT_EQ(r->exit_code, 0) << r->out;
    EXPECT_EQ(r->out, expected);
  }
}

// --ids prints the reference ids; --pieces decodes them one by one, and the pieces joined are the
// text again (for a text whose characters each lie within one token: a split one decodes to
// U+FFFD).
TEST_F(Tokenize, IdsAndPiecesRoundTrip) {
  const Vector v = reference_vector(62);  // tabs, CR LF, Chinese, digits; no character split
  const auto ids = run({"--tokenizer", "builtin", "--ids", v.text});
  EXPECT_EQ(ids.exit_code, 0) << ids.out;
  EXPECT_EQ(ids.out, joined(v.ids) + "\n");

  const auto pieces = run({"--tokenizer", "builtin", "--pieces", v.text});
  EXPECT_EQ(pieces.exit_code, 0) << pieces.out;
  const auto lines = lines_of(pieces.out);
  EXPECT_EQ(lines.size(), v.ids.size()) << pieces.out;
  std::string text;
  for (const auto& line : lines) text += nlohmann::json::parse(line).get<std::string>();
  EXPECT_EQ(text, v.text);

  // Both: one token a line, the id, a tab and the piece.
  const auto both = run({"--tokenizer", "builtin", "--ids", "--pieces", reference_vector(0).text});
  EXPECT_EQ(both.exit_code, 0) << both.out;
  EXPECT_EQ(lines_of(both.out).front(), "976\t\"The\"");
}

// --json: one object; a token holding part of an emoji's bytes decodes alone to U+FFFD.
TEST_F(Tokenize, JsonWithIdsAndPieces) {
  const Vector v = reference_vector(68);
  const auto r = run({"--tokenizer", "builtin", "--json", "--ids", "--pieces", v.text});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("tokenizer"), "builtin (o200k)");
  EXPECT_EQ(j.at("count"), v.ids.size());
  EXPECT_EQ(j.at("ids").get<std::vector<std::int32_t>>(), v.ids);
  const auto pieces = j.at("pieces").get<std::vector<std::string>>();
  ASSERT_EQ(pieces.size(), v.ids.size());
  EXPECT_NE(std::find(pieces.begin(), pieces.end(), "\xEF\xBF\xBD"), pieces.end()) << r.out;

  const auto count_only = run({"--tokenizer", "builtin", "--json", "abc"});
  EXPECT_EQ(count_only.exit_code, 0) << count_only.out;
  EXPECT_FALSE(nlohmann::json::parse(count_only.out).contains("ids"));
}

// Each refusal exits 2 before anything is tokenized, naming the flag or file at fault.
TEST_F(Tokenize, BadInputExits2NamingTheProblem) {
  const auto unknown = run({"--tokenizer", "builtin", "--bogus", "x"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("--bogus"), std::string::npos) << unknown.out;

  const std::string missing = dir_ + "/missing.txt";
  const auto no_file = run({"--tokenizer", "builtin", "--file", missing});
  EXPECT_EQ(no_file.exit_code, 2) << no_file.out;
  EXPECT_NE(no_file.out.find("--file " + missing), std::string::npos) << no_file.out;

  const std::string path = write("t.txt", "hello");
  const auto both = run({"--tokenizer", "builtin", "--file", path, "hello"});
  EXPECT_EQ(both.exit_code, 2) << both.out;
  EXPECT_NE(both.out.find("TEXT or --file"), std::string::npos) << both.out;

  const auto no_tokenizer = run({"hello"});
  EXPECT_EQ(no_tokenizer.exit_code, 2) << no_tokenizer.out;
  EXPECT_NE(no_tokenizer.out.find("--tokenizer is required"), std::string::npos)
      << no_tokenizer.out;

  // A sparse file: refused from its size, never read.
  const std::string huge = write("huge.txt", "");
  fs::resize_file(huge, (std::uintmax_t{256} << 20) + 1);
  const auto too_big = run({"--tokenizer", "builtin", "--file", huge});
  EXPECT_EQ(too_big.exit_code, 2) << too_big.out;
  EXPECT_NE(too_big.out.find("--file " + huge), std::string::npos) << too_big.out;
  EXPECT_NE(too_big.out.find("256 MiB"), std::string::npos) << too_big.out;

  // The resolver's message lists where it looked (here the Hugging Face cache under HF_HOME).
  const auto not_found = run({"--tokenizer", "no-such-tokenizer", "hello"});
  EXPECT_EQ(not_found.exit_code, 2) << not_found.out;
  EXPECT_NE(not_found.out.find("--tokenizer no-such-tokenizer"), std::string::npos)
      << not_found.out;
  EXPECT_NE(not_found.out.find(dir_ + "/hub/models--no-such-tokenizer"), std::string::npos)
      << not_found.out;

  const auto help = run({"--help"});
  EXPECT_EQ(help.exit_code, 0) << help.out;
  EXPECT_NE(help.out.find("--pieces"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace inferperf::testing
