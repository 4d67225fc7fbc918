// download_tokenizer with a fake Hub: what it writes, and that data from the server or the command
// line cannot lead its writes out of the cache.
#include "tokenizer/hub_download.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace inferperf::tokenizer {
namespace {

namespace fs = std::filesystem;

class HubDownload : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("ip-hub-download-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "cache");
    options_.repo = "org/name";
    options_.hub_cache = root_ / "cache";
  }
  void TearDown() override { fs::remove_all(root_); }
  // A Hub that has tokenizer.json and answers with `commit` as X-Repo-Commit.
  HubFetch hub(const std::string& commit) {
    return [this, commit](const std::string& url, const auto&) -> core::Result<HubResponse> {
      ++fetches_;
      if (url.ends_with("/tokenizer.json")) return HubResponse{200, "{}", commit};
      return HubResponse{404, "", ""};
    };
  }
  std::size_t files() const {
    std::size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(root_)) n += e.is_regular_file();
    return n;
  }
  fs::path root_;
  HubDownloadOptions options_;
  int fetches_ = 0;
};

TEST_F(HubDownload, WritesTheSnapshotAndTheRef) {
  auto got = download_tokenizer(options_, hub("0123abcd"));
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got,
            root_ / "cache" / "models--org--name" / "snapshots" / "0123abcd" / "tokenizer.json");
  std::ifstream ref(root_ / "cache" / "models--org--name" / "refs" / "main");
  std::stringstream ss;
  ss << ref.rdbuf();
  EXPECT_EQ(ss.str(), "0123abcd");
}

TEST_F(HubDownload, ACommitIdThatIsAPathIsRefused) {
  for (const std::string commit : {"../../../escaped", "..", "a/b", "/tmp/x", "a\nb"}) {
    auto got = download_tokenizer(options_, hub(commit));
    ASSERT_FALSE(got.ok()) << commit;
    EXPECT_NE(got.error().message.find("unusable commit id"), std::string::npos)
        << got.error().message;
  }
  EXPECT_EQ(files(), 0u);
}

TEST_F(HubDownload, ARevisionThatLeavesRefsIsRefused) {
  for (const std::string revision : {"../../x", "..", "refs/../../x", "", "main/", "/abs"}) {
    options_.revision = revision;
    auto got = download_tokenizer(options_, hub("0123abcd"));
    ASSERT_FALSE(got.ok()) << revision;
    EXPECT_NE(got.error().message.find("is not a revision name"), std::string::npos)
        << got.error().message;
  }
  EXPECT_EQ(fetches_, 0);           // refused before anything is asked
  options_.revision = "refs/pr/1";  // a Hub pull-request revision is fine
  EXPECT_TRUE(download_tokenizer(options_, hub("0123abcd")).ok());
}

}  // namespace
}  // namespace inferperf::tokenizer
