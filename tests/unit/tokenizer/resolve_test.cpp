// resolve_tokenizer: "builtin", local files and folders, the Hugging Face cache layout, placeholder
// names and the error that lists every place looked at. All in temporary folders; the environment
// (HF_HOME, HF_HUB_CACHE, HOME) comes in through ResolveOptions.
#include "tokenizer/resolve.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace inferperf::tokenizer {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::write_file;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

class Resolve : public ::testing::Test {
 protected:
  // Options that can never see the real machine's caches: every root is inside tmp_.
  ResolveOptions options(const std::string& name) const {
    ResolveOptions o;
    o.name = name;
    o.builtin_dir = tmp_ / "builtin";
    o.hf_hub_cache = (tmp_ / "hub").string();
    o.home = (tmp_ / "home").string();
    return o;
  }
  void install_builtin() { write_file(tmp_ / "builtin/tokenizer.json", "{}"); }
  // <hub>/models--ORG--NAME/refs/REF holding COMMIT, and snapshots/COMMIT/FILE.
  static fs::path add_cached(const fs::path& hub, const std::string& repo_dir,
                             const std::string& ref, const std::string& commit,
                             const std::string& file = "tokenizer.json") {
    const fs::path model = hub / repo_dir;
    write_file(model / "refs" / ref, commit);
    const fs::path f = model / "snapshots" / commit / file;
    write_file(f, "{}");
    return f;
  }

  TempDir tmp_;
};

// --- builtin ---------------------------------------------------------------------------------

TEST_F(Resolve, BuiltinFindsTheInstalledFile) {
  install_builtin();
  auto r = resolve_tokenizer(options("builtin"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, tmp_ / "builtin/tokenizer.json");
  EXPECT_EQ(r->description, "builtin (o200k)");
  EXPECT_EQ(r->notice, "");
}

TEST_F(Resolve, BuiltinMissingIsAnErrorNamingFetchTokenizers) {
  fs::create_directories(tmp_ / "builtin");  // empty folder
  auto r = resolve_tokenizer(options("builtin"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kConfig);
  EXPECT_TRUE(contains(r.error().message, "fetch-tokenizers")) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, (tmp_ / "builtin").string())) << r.error().message;

  fs::remove_all(tmp_ / "builtin");  // no folder at all
  auto r2 = resolve_tokenizer(options("builtin"));
  ASSERT_FALSE(r2.ok());
  EXPECT_TRUE(contains(r2.error().message, "fetch-tokenizers")) << r2.error().message;
}

TEST_F(Resolve, BuiltinLoadsWhenItIsARealTokenizer) {
  fs::create_directories(tmp_ / "builtin");
  fs::create_symlink(testing::wordpiece_mini_path(), tmp_ / "builtin/tokenizer.json");
  auto r = resolve_tokenizer(options("builtin"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto tok = load_tokenizer_file(r->file);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  EXPECT_EQ((*tok)->encode("unaffable"), (std::vector<std::int32_t>{10, 11, 12}));
}

TEST(ResolveBuiltinDir, IsShareFolderBesideTheBinaryFolder) {
  EXPECT_EQ(builtin_dir_for("/opt/inferperf/bin/inferperf"),
            fs::path("/opt/inferperf/share/inferperf/tokenizers/builtin"));
  EXPECT_EQ(builtin_dir_for("/usr/local/bin/inferperf"),
            fs::path("/usr/local/share/inferperf/tokenizers/builtin"));
}

// --- local paths -----------------------------------------------------------------------------

TEST_F(Resolve, LocalTokenizerJsonFile) {
  const fs::path f = tmp_ / "models/my-model/tokenizer.json";
  write_file(f, "{}");
  auto r = resolve_tokenizer(options(f.string()));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
  EXPECT_EQ(r->description, f.string());
  EXPECT_EQ(r->notice, "");
}

TEST_F(Resolve, LocalFileWithAnyNameIsTakenAsIs) {
  const fs::path f = tmp_ / "custom-name.json";
  write_file(f, "{}");
  auto r = resolve_tokenizer(options(f.string()));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, LocalFolderWithTokenizerJson) {
  const fs::path dir = tmp_ / "models/my-model";
  write_file(dir / "tokenizer.json", "{}");
  write_file(dir / "config.json", "{}");
  auto r = resolve_tokenizer(options(dir.string()));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, dir / "tokenizer.json");
}

TEST_F(Resolve, LocalFolderPrefersTokenizerJsonOverModel) {
  const fs::path dir = tmp_ / "both";
  write_file(dir / "tokenizer.model", "x");
  write_file(dir / "tokenizer.json", "{}");
  auto r = resolve_tokenizer(options(dir.string()));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, dir / "tokenizer.json");
}

TEST_F(Resolve, LocalFolderWithOnlySentencePieceModels) {
  const fs::path dir = tmp_ / "spm";
  write_file(dir / "tokenizer.model", "x");
  auto r = resolve_tokenizer(options(dir.string()));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, dir / "tokenizer.model");

  const fs::path t5 = tmp_ / "t5";
  write_file(t5 / "spiece.model", "x");
  auto r2 = resolve_tokenizer(options(t5.string()));
  ASSERT_TRUE(r2.ok()) << r2.error().describe();
  EXPECT_EQ(r2->file, t5 / "spiece.model");

  const fs::path xlmr = tmp_ / "xlmr";
  write_file(xlmr / "sentencepiece.bpe.model", "x");
  auto r3 = resolve_tokenizer(options(xlmr.string()));
  ASSERT_TRUE(r3.ok()) << r3.error().describe();
  EXPECT_EQ(r3->file, xlmr / "sentencepiece.bpe.model");
}

TEST_F(Resolve, LocalFolderWithoutATokenizerIsAnError) {
  const fs::path dir = tmp_ / "empty-model";
  write_file(dir / "config.json", "{}");
  auto r = resolve_tokenizer(options(dir.string()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, dir.string())) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, "without tokenizer.json")) << r.error().message;
}

// --- Hugging Face cache ----------------------------------------------------------------------

TEST_F(Resolve, HubCacheMainRevision) {
  const fs::path f = add_cached(tmp_ / "hub", "models--org--name", "main", "0123abcd");
  auto r = resolve_tokenizer(options("org/name"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
  EXPECT_TRUE(contains(r->description, "org/name")) << r->description;
  EXPECT_TRUE(contains(r->description, "0123abcd")) << r->description;
  EXPECT_EQ(r->notice, "");
}

TEST_F(Resolve, HubCacheRefFileWithTrailingNewline) {
  const fs::path f = add_cached(tmp_ / "hub", "models--org--name", "main", "0123abcd");
  write_file(tmp_ / "hub/models--org--name/refs/main", "0123abcd\n");
  auto r = resolve_tokenizer(options("org/name"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, HubCacheNamedRevision) {
  add_cached(tmp_ / "hub", "models--org--name", "main", "1111aaaa");
  const fs::path v2 = add_cached(tmp_ / "hub", "models--org--name", "v2", "2222bbbb");
  auto o = options("org/name");
  o.revision = "v2";
  auto r = resolve_tokenizer(o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, v2);

  o.revision = "v3";  // no such ref and no such snapshot
  auto missing = resolve_tokenizer(o);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains(missing.error().message, "v3")) << missing.error().message;
}

TEST_F(Resolve, HubCacheRevisionGivenAsCommitHash) {
  const fs::path f = add_cached(tmp_ / "hub", "models--org--name", "main", "3333cccc");
  auto o = options("org/name");
  o.revision = "3333cccc";
  auto r = resolve_tokenizer(o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, HubCacheSnapshotSymlinkIntoBlobs) {
  // The real layout: snapshot files are links to content-addressed blobs.
  const fs::path model = tmp_ / "hub/models--org--name";
  write_file(model / "refs/main", "4444dddd");
  write_file(model / "blobs/9f86d081884c7d65", "{}");
  fs::create_directories(model / "snapshots/4444dddd");
  fs::create_symlink("../../blobs/9f86d081884c7d65", model / "snapshots/4444dddd/tokenizer.json");
  auto r = resolve_tokenizer(options("org/name"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, model / "snapshots/4444dddd/tokenizer.json");
}

TEST_F(Resolve, HubCacheWithOnlyASentencePieceModel) {
  const fs::path f =
      add_cached(tmp_ / "hub", "models--org--spm-model", "main", "5555eeee", "tokenizer.model");
  auto r = resolve_tokenizer(options("org/spm-model"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, HubCacheNameWithoutOrganisation) {
  const fs::path f = add_cached(tmp_ / "hub", "models--gpt2", "main", "6666ffff");
  auto r = resolve_tokenizer(options("gpt2"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, HfHomeUsesItsHubFolder) {
  const fs::path f = add_cached(tmp_ / "hf-home/hub", "models--org--name", "main", "7777aaaa");
  auto o = options("org/name");
  o.hf_hub_cache.clear();
  o.hf_home = (tmp_ / "hf-home").string();
  auto r = resolve_tokenizer(o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, HfHubCacheTakesPrecedenceOverHfHome) {
  add_cached(tmp_ / "hf-home/hub", "models--org--name", "main", "8888aaaa");
  const fs::path f = add_cached(tmp_ / "hub", "models--org--name", "main", "8888bbbb");
  auto o = options("org/name");
  o.hf_home = (tmp_ / "hf-home").string();
  auto r = resolve_tokenizer(o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, HomeCacheIsTheLastDefault) {
  const fs::path f =
      add_cached(tmp_ / "home/.cache/huggingface/hub", "models--org--name", "main", "9999aaaa");
  auto o = options("org/name");
  o.hf_hub_cache.clear();
  o.hf_home.clear();
  auto r = resolve_tokenizer(o);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
}

TEST_F(Resolve, LocalPathWinsOverHubCache) {
  add_cached(tmp_ / "hub", "models--org--name", "main", "aaaa0000");
  const fs::path dir = tmp_ / "local";
  write_file(dir / "tokenizer.json", "{}");
  auto r = resolve_tokenizer(options(dir.string()));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, dir / "tokenizer.json");
}

// --- placeholder names -----------------------------------------------------------------------

TEST_F(Resolve, PlaceholderNamesFallBackToBuiltinWithANotice) {
  install_builtin();
  for (const std::string name : {"mock-model", "test-llm", "dummy", "Fake-GPT"}) {
    auto r = resolve_tokenizer(options(name));
    ASSERT_TRUE(r.ok()) << name << ": " << r.error().describe();
    EXPECT_EQ(r->file, tmp_ / "builtin/tokenizer.json") << name;
    EXPECT_EQ(r->description, "builtin (o200k)") << name;
    EXPECT_FALSE(r->notice.empty()) << name;
    EXPECT_TRUE(contains(r->notice, name)) << r->notice;
  }
}

TEST_F(Resolve, PlaceholderWithoutBuiltinIsTheBuiltinError) {
  auto r = resolve_tokenizer(options("mock-model"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "fetch-tokenizers")) << r.error().message;
}

TEST_F(Resolve, PlaceholderNameInTheHubCacheUsesTheCache) {
  install_builtin();
  const fs::path f = add_cached(tmp_ / "hub", "models--test-llm", "main", "bbbb0000");
  auto r = resolve_tokenizer(options("test-llm"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->file, f);
  EXPECT_EQ(r->notice, "");
}

TEST(ResolvePlaceholder, RecognisesPlaceholderNames) {
  for (const char* n : {"mock-model", "test-llm", "test-model", "dummy", "MOCK", "fake-llm",
                        "placeholder", "example-model"}) {
    EXPECT_TRUE(is_placeholder_model_name(n)) << n;
  }
  for (const char* n : {"Qwen/Qwen3-0.6B", "meta-llama/Llama-3-8B", "gpt-4o", "llama3",
                        "mistralai/Mistral-7B-Instruct-v0.3", "", "builtin"}) {
    EXPECT_FALSE(is_placeholder_model_name(n)) << n;
  }
}

// Ollama-style tags such as "llama3:latest" are real model names, not placeholders.
TEST(ResolvePlaceholder, LatestTagIsNotAPlaceholder) {
  for (const char* n : {"llama3:latest", "qwen2.5:latest", "chatgpt-4o-latest"}) {
    EXPECT_FALSE(is_placeholder_model_name(n)) << n;
  }
}

// --- nothing found ---------------------------------------------------------------------------

TEST_F(Resolve, UnknownRealNameListsEveryPlaceLookedAt) {
  install_builtin();  // a real name never falls back to it
  auto r = resolve_tokenizer(options("acme/not-cached-7B"));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.error().message;
  EXPECT_EQ(r.error().kind, core::ErrorKind::kConfig);
  EXPECT_TRUE(contains(m, "acme/not-cached-7B")) << m;
  EXPECT_TRUE(contains(m, "local path")) << m;
  EXPECT_TRUE(contains(m, "Hugging Face cache")) << m;
  EXPECT_TRUE(contains(m, (tmp_ / "hub/models--acme--not-cached-7B").string())) << m;
  EXPECT_TRUE(contains(m, "--use-server-token-count")) << m;
  EXPECT_TRUE(contains(m, "--tokenizer")) << m;
}

TEST_F(Resolve, CachedModelWithoutTokenizerIsNotFound) {
  // refs/main points at a snapshot that only has config.json.
  write_file(tmp_ / "hub/models--org--name/refs/main", "cccc0000");
  write_file(tmp_ / "hub/models--org--name/snapshots/cccc0000/config.json", "{}");
  auto r = resolve_tokenizer(options("org/name"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "cccc0000")) << r.error().message;
}

// --- a local path never goes to the network --------------------------------------------------

TEST(ResolveLocalPathForm, PathsAreLocalAndHubIdsAreNot) {
  EXPECT_EQ(local_path_form("/no/such/dir", "/home/u"), fs::path("/no/such/dir"));
  EXPECT_EQ(local_path_form("./tok", "/home/u"), fs::path("./tok"));
  EXPECT_EQ(local_path_form("../tok", "/home/u"), fs::path("../tok"));
  EXPECT_EQ(local_path_form(".", "/home/u"), fs::path("."));
  EXPECT_EQ(local_path_form("~/models/tok", "/home/u"), fs::path("/home/u/models/tok"));
  EXPECT_EQ(local_path_form("~", "/home/u"), fs::path("/home/u/"));
  EXPECT_EQ(local_path_form("models/org/name", "/home/u"), fs::path("models/org/name"));
  EXPECT_FALSE(local_path_form("org/name", "/home/u"));
  EXPECT_FALSE(local_path_form("gpt2", "/home/u"));
  EXPECT_FALSE(local_path_form("", "/home/u"));
}

class ResolveLocalPath : public Resolve {
 protected:
  // A fetch that records every URL it is asked for and finds nothing.
  ResolveOptions counted(const std::string& name) {
    ResolveOptions o = options(name);
    o.hf_endpoint = "http://127.0.0.1:9";
    o.fetch = &fetch_;
    return o;
  }
  std::vector<std::string> urls_;
  HubFetch fetch_ = [this](const std::string& url, const auto&) -> core::Result<HubResponse> {
    urls_.push_back(url);
    return HubResponse{404, "", ""};
  };
};

TEST_F(ResolveLocalPath, MissingPathsAreRefusedWithoutAnyFetch) {
  install_builtin();
  for (const std::string name :
       {"/no/such/dir", "./no/such", "../no/such", "~/no/such", "a/b/c", "/tmp/mock-model"}) {
    auto r = resolve_tokenizer(counted(name));
    ASSERT_FALSE(r.ok()) << name;
    const std::string& m = r.error().message;
    EXPECT_EQ(r.error().kind, core::ErrorKind::kConfig) << name;
    EXPECT_TRUE(contains(m, "--tokenizer " + name + ":")) << m;
    EXPECT_TRUE(contains(m, "does not exist")) << m;
    EXPECT_TRUE(contains(m, "never looked up on the Hugging Face Hub")) << m;
    EXPECT_FALSE(contains(m, "Hugging Face cache")) << m;  // not looked for there either
  }
  EXPECT_TRUE(urls_.empty()) << urls_.front();
}

TEST_F(ResolveLocalPath, TildeExpandsToHome) {
  write_file(tmp_ / "home/tok/tokenizer.json", "{}");
  auto r = resolve_tokenizer(counted("~/tok"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->file, tmp_ / "home/tok/tokenizer.json");
  auto missing = resolve_tokenizer(counted("~/other"));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains(missing.error().message, (tmp_ / "home/other").string()))
      << missing.error().message;
}

TEST_F(ResolveLocalPath, FolderWithoutTokenizerSaysSo) {
  fs::create_directories(tmp_ / "empty");
  auto r = resolve_tokenizer(counted((tmp_ / "empty").string()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "is a folder without tokenizer.json"))
      << r.error().message;
  EXPECT_TRUE(urls_.empty());
}

TEST_F(ResolveLocalPath, ModelNameAsPathNamesTheDefault) {
  ResolveOptions o = counted("/models/Llama-3-8B");
  o.flag = "--tokenizer (the model name by default)";
  auto r = resolve_tokenizer(o);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message, "--tokenizer (the model name by default) /models/"))
      << r.error().message;
  EXPECT_TRUE(urls_.empty());
}

TEST_F(ResolveLocalPath, HubIdsStillDownload) {
  auto r = resolve_tokenizer(counted("acme/not-cached"));
  ASSERT_FALSE(r.ok());
  ASSERT_FALSE(urls_.empty());
  EXPECT_TRUE(contains(urls_.front(), "acme/not-cached")) << urls_.front();
}

}  // namespace
}  // namespace inferperf::tokenizer
