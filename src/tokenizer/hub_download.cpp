#include "tokenizer/hub_download.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

namespace inferperf::tokenizer {

namespace fs = std::filesystem;

namespace {

core::Result<bool> write_file(const fs::path& p, const std::string& content) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  fs::path tmp = p;
  tmp += ".incomplete";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!f) return core::Error{core::ErrorKind::kIo, "cannot write", tmp.string()};
  }
  fs::rename(tmp, p, ec);
  if (ec) return core::Error{core::ErrorKind::kIo, "cannot rename: " + ec.message(), p.string()};
  return true;
}

// One folder or file name inside the cache: letters, digits and ._- only, never "." or "..".
bool safe_cache_name(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return false;
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (!std::isalnum(c) && ch != '.' && ch != '_' && ch != '-') return false;
  }
  return true;
}

}  // namespace

core::Result<fs::path> download_tokenizer(const HubDownloadOptions& o, const HubFetch& fetch) {
  std::string endpoint = o.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  std::vector<std::pair<std::string, std::string>> headers;
  if (!o.token.empty()) headers.emplace_back("Authorization", "Bearer " + o.token);
  auto url_of = [&](const std::string& file) {
    return endpoint + "/" + o.repo + "/resolve/" + o.revision + "/" + file;
  };

  // A revision is a branch, tag or commit ("main", "v1.0", "refs/pr/1"); it names a file under
  // refs/, so none of its parts may be empty, "." or "..".
  for (std::size_t start = 0; start <= o.revision.size();) {
    const std::size_t slash = std::min(o.revision.find('/', start), o.revision.size());
    const std::string part = o.revision.substr(start, slash - start);
    if (part.empty() || part == "." || part == ".." || part.find('\\') != std::string::npos ||
        std::any_of(part.begin(), part.end(),
                    [](char ch) { return static_cast<unsigned char>(ch) < 0x20; })) {
      return core::Error{core::ErrorKind::kConfig,
                         "--tokenizer-revision '" + o.revision + "' is not a revision name"};
    }
    start = slash + 1;
  }
  std::string repo_dir = "models--" + o.repo;
  for (std::size_t p; (p = repo_dir.find('/')) != std::string::npos;) repo_dir.replace(p, 1, "--");
  const fs::path model_dir = o.hub_cache / repo_dir;

  std::string commit;
  fs::path main_file;
  for (const char* file : {"tokenizer.json", "tokenizer.model"}) {
    auto res = fetch(url_of(file), headers);
    if (!res) return res.error();
    if (res->status == 404) continue;
    if (res->status == 401 || res->status == 403) {
      return core::Error{core::ErrorKind::kConfig, "access to " + o.repo + " was refused (HTTP " +
                                                       std::to_string(res->status) +
                                                       "); set HF_TOKEN for gated models"};
    }
    if (res->status != 200) {
      return core::Error{core::ErrorKind::kNetwork,
                         "GET " + url_of(file) + " answered HTTP " + std::to_string(res->status)};
    }
    commit = res->repo_commit.empty() ? o.revision : res->repo_commit;
    // The commit names a folder: a server's answer (or a revision) may not lead out of the cache.
    if (!safe_cache_name(commit)) {
      return core::Error{core::ErrorKind::kNetwork,
                         "GET " + url_of(file) + ": unusable commit id '" + commit + "'"};
    }
    main_file = model_dir / "snapshots" / commit / file;
    if (auto w = write_file(main_file, res->body); !w) return w.error();
    break;
  }
  if (main_file.empty()) {
    return core::Error{
        core::ErrorKind::kConfig,
        o.repo + " has no tokenizer.json or tokenizer.model at revision " + o.revision};
  }
  // tokenizer_config.json is optional; it only refines decoding.
  if (auto cfg = fetch(url_of("tokenizer_config.json"), headers); cfg && cfg->status == 200) {
    if (auto w = write_file(model_dir / "snapshots" / commit / "tokenizer_config.json", cfg->body);
        !w)
      return w.error();
  }
  if (commit != o.revision) {
    if (auto w = write_file(model_dir / "refs" / o.revision, commit); !w) return w.error();
  }
  return main_file;
}

}  // namespace inferperf::tokenizer
