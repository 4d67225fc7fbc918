#include "tokenizer/resolve.hpp"

#include <algorithm>
#include <fstream>

#include "tokenizer/hf_tokenizer.hpp"
#include "tokenizer/hub_cache.hpp"
#include "tokenizer/sentencepiece_tokenizer.hpp"

namespace inferperf::tokenizer {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A folder that holds a tokenizer: tokenizer.json first, then a SentencePiece model.
std::optional<fs::path> tokenizer_in(const fs::path& dir) {
  for (const char* f :
       {"tokenizer.json", "tokenizer.model", "spiece.model", "sentencepiece.bpe.model"}) {
    if (fs::is_regular_file(dir / f)) return dir / f;
  }
  return std::nullopt;
}

fs::path hub_cache(const ResolveOptions& o) {
  return hub_cache_dir(HubCacheEnv{o.hf_hub_cache, o.hf_home, o.xdg_cache_home, o.home});
}

core::Error missing_local_path(const ResolveOptions& o, const fs::path& path) {
  std::error_code ec;
  const std::string what = fs::is_directory(path, ec)
                               ? "is a folder without tokenizer.json or a SentencePiece .model file"
                           : fs::exists(path, ec) ? "is not a regular file or folder"
                                                  : "does not exist";
  return core::Error{
      core::ErrorKind::kConfig,
      o.flag + " " + o.name + ": the local path " + path.string() + " " + what +
          " (a path is never looked up on the Hugging Face Hub; give a tokenizer.json, a "
          "SentencePiece .model or a folder with one, or a Hub id ORG/NAME)",
      "", 0, "tokenizer"};
}

}  // namespace

std::optional<fs::path> local_path_form(const std::string& name, const std::string& home) {
  if (name.empty()) return std::nullopt;
  if (name == "~" || name.rfind("~/", 0) == 0)
    return fs::path(home.empty() ? "/root" : home) / name.substr(name.size() > 1 ? 2 : 1);
  if (name[0] == '/' || name == "." || name == ".." || name.rfind("./", 0) == 0 ||
      name.rfind("../", 0) == 0 || name[0] == '~')
    return fs::path(name);
  if (std::count(name.begin(), name.end(), '/') > 1) return fs::path(name);
  return std::nullopt;
}

bool is_placeholder_model_name(const std::string& name) {
  if (name.find('/') != std::string::npos) return false;
  // Whole words only, so "llama3:latest" is not a test name.
  const std::string n = lower(name);
  std::size_t i = 0;
  while (i < n.size()) {
    while (i < n.size() && !std::isalnum(static_cast<unsigned char>(n[i]))) ++i;
    std::size_t j = i;
    while (j < n.size() && std::isalnum(static_cast<unsigned char>(n[j]))) ++j;
    const std::string word = n.substr(i, j - i);
    for (const char* p : {"mock", "test", "dummy", "fake", "placeholder", "example"}) {
      if (word == p) return true;
    }
    i = j;
  }
  return false;
}

fs::path builtin_dir_for(const fs::path& exe) {
  return exe.parent_path().parent_path() / "share" / "inferperf" / "tokenizers" / "builtin";
}

core::Result<Resolved> resolve_tokenizer(const ResolveOptions& o) {
  std::vector<std::string> tried;
  auto builtin = [&](std::string notice) -> core::Result<Resolved> {
    if (auto f = tokenizer_in(o.builtin_dir))
      return Resolved{*f, "builtin (o200k)", std::move(notice)};
    return core::Error{
        core::ErrorKind::kConfig,
        "the builtin tokenizer is not installed (looked in " + o.builtin_dir.string() +
            "); run scripts/fetch-tokenizers.sh and rebuild, or pass --use-server-token-count"};
  };
  if (o.name == "builtin") return builtin("");

  const std::optional<fs::path> local = local_path_form(o.name, o.home);
  const fs::path as_path = local ? *local : fs::path(o.name);
  tried.push_back("local path " + as_path.string());
  if (fs::is_regular_file(as_path)) return Resolved{as_path, as_path.string(), ""};
  if (fs::is_directory(as_path)) {
    if (auto f = tokenizer_in(as_path)) return Resolved{*f, f->string(), ""};
    tried.back() += " (a folder without tokenizer.json or a .model file)";
  }
  // A path is the user's file: looking it up in the Hub cache or downloading it would send a
  // local path to the network (and could never find it there).
  if (local) return missing_local_path(o, *local);

  // Hugging Face cache: <hub>/models--ORG--NAME/snapshots/<commit>/ with refs/<revision> naming it.
  if (o.name.find('/') != std::string::npos || !o.name.empty()) {
    const HubSnapshot found = hub_snapshot(hub_cache(o), "models", o.name, o.revision);
    const fs::path& snap = found.dir;
    const std::string& commit = found.commit;
    tried.push_back("Hugging Face cache " + snap.string());
    if (auto f = tokenizer_in(snap))
      return Resolved{*f, o.name + " (Hugging Face cache, " + commit + ")", ""};

    if (o.name.find('/') != std::string::npos && !is_placeholder_model_name(o.name)) {
      if (o.offline) {
        tried.push_back("download from " + o.hf_endpoint + " (skipped: HF_HUB_OFFLINE is set)");
      } else if (o.fetch) {
        HubDownloadOptions d;
        d.endpoint = o.hf_endpoint;
        d.token = o.hf_token;
        d.repo = o.name;
        d.revision = o.revision;
        d.hub_cache = hub_cache(o);
        auto got = download_tokenizer(d, *o.fetch);
        if (got) return Resolved{*got, o.name + " (downloaded from " + o.hf_endpoint + ")", ""};
        tried.push_back("download from " + o.hf_endpoint + ": " + got.error().message);
      }
    }
  }

  if (is_placeholder_model_name(o.name)) {
    return builtin("'" + o.name +
                   "' looks like a placeholder model name; using the builtin o200k tokenizer");
  }
  std::string msg = "no tokenizer found for '" + o.name + "'. Looked at:\n";
  for (const auto& t : tried) msg += "  - " + t + "\n";
  msg +=
      "Fix: pass --tokenizer PATH (a tokenizer.json, a SentencePiece .model or a folder with one), "
      "put the "
      "model in the Hugging Face cache (HF_HOME / HF_HUB_CACHE), use --tokenizer builtin, or count "
      "tokens from "
      "the server with --use-server-token-count";
  return core::Error{core::ErrorKind::kConfig, msg, "", 0, "tokenizer"};
}

core::Result<std::unique_ptr<Tokenizer>> load_tokenizer_file(const fs::path& file) {
  if (file.extension() == ".model") {
    auto t = SentencePieceTokenizer::load(file);
    if (!t) return t.error();
    return std::unique_ptr<Tokenizer>(std::move(*t));
  }
  auto t = HfTokenizer::load(file);
  if (!t) return t.error();
  return std::unique_ptr<Tokenizer>(std::move(*t));
}

}  // namespace inferperf::tokenizer
