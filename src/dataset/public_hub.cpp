// A Hub dataset's subset and split fetched into the Hugging Face cache layout (public_loader.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "dataset/public_loader.hpp"
#include "tokenizer/hub_cache.hpp"

namespace inferperf::dataset {

namespace {

namespace fs = std::filesystem;

core::Error pubhub_error(const PublicDatasetSpec& s, std::string msg) {
  return core::Error{core::ErrorKind::kNetwork,
                     fmt::format("--public-dataset {}: {}", s.name, std::move(msg)), "", 0, ""};
}

// A path from the listing stays inside the snapshot: relative, no "." / ".." / empty parts.
bool pubhub_safe_path(const std::string& p) {
  if (p.empty() || p[0] == '/' || p.find('\\') != std::string::npos) return false;
  for (std::size_t start = 0; start <= p.size();) {
    const std::size_t slash = std::min(p.find('/', start), p.size());
    const std::string part = p.substr(start, slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = slash + 1;
  }
  return true;
}

bool pubhub_safe_commit(const std::string& c) {
  return !c.empty() && c != "." && c != ".." && std::all_of(c.begin(), c.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-';
  });
}

std::optional<std::string> pubhub_write(const fs::path& p, const std::string& content) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  if (ec) return fmt::format("cannot create {}: {}", p.parent_path().string(), ec.message());
  fs::path tmp = p;
  tmp += ".incomplete";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!f) return "cannot write " + tmp.string();
  }
  fs::rename(tmp, p, ec);
  if (ec) return fmt::format("cannot rename {}: {}", tmp.string(), ec.message());
  return std::nullopt;
}

std::string pubhub_refused(int status, const std::string& url, bool has_token) {
  std::string why = fmt::format("GET {} answered HTTP {}", url, status);
  if (status == 401 || status == 403)
    why += has_token ? " (check HF_TOKEN and the dataset's terms)"
                     : " (a gated dataset: set HF_TOKEN and accept its terms on the Hub)";
  return why;
}

// The listing's file paths.
core::Result<std::vector<fs::path>> pubhub_list(const PublicDatasetSpec& s, const std::string& body,
                                                const std::string& url) {
  nlohmann::json tree;
  try {
    tree = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception&) {
    return pubhub_error(s, "the listing " + url + " is not JSON");
  }
  if (!tree.is_array()) return pubhub_error(s, "the listing " + url + " is not a JSON list");
  std::vector<fs::path> out;
  for (const auto& e : tree) {
    if (!e.is_object() || e.value("type", "") != "file" || !e.contains("path") ||
        !e["path"].is_string())
      continue;
    const std::string p = e["path"].get<std::string>();
    if (pubhub_safe_path(p)) out.emplace_back(p);
  }
  return out;
}

}  // namespace

core::Result<fs::path> download_public_dataset(const PublicDatasetSpec& s,
                                               const PublicHubDownload& o,
                                               const tokenizer::HubFetch& fetch) {
  std::string endpoint = o.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  std::vector<std::pair<std::string, std::string>> headers;
  if (!o.token.empty()) headers.emplace_back("Authorization", "Bearer " + o.token);
  const std::string revision(s.revision);
  const std::string list_url =
      fmt::format("{}/api/datasets/{}/tree/{}?recursive=true", endpoint, s.repo, revision);
  auto listing = fetch(list_url, headers);
  if (!listing) return pubhub_error(s, "listing " + list_url + ": " + listing.error().describe());
  if (listing->status != 200)
    return pubhub_error(s, pubhub_refused(listing->status, list_url, !o.token.empty()));
  auto paths = pubhub_list(s, listing->body, list_url);
  if (!paths) return paths.error();
  auto chosen = choose_public_paths(*paths, o.subset, o.subset_typed, std::string(s.split), s.name,
                                    fs::path(list_url));
  if (!chosen) return chosen.error();
  // A JSON Lines or JSON file makes its Parquet namesake unnecessary.
  std::set<fs::path> stems;
  for (const auto& p : *chosen)
    if (p.extension() != ".parquet") stems.insert(fs::path(p).replace_extension());
  const fs::path repo_dir =
      o.hub_cache / tokenizer::hub_repo_folder("datasets", std::string(s.repo));
  std::string commit;
  for (const auto& p : *chosen) {
    if (p.extension() == ".parquet" && stems.count(fs::path(p).replace_extension())) continue;
    const std::string url =
        fmt::format("{}/datasets/{}/resolve/{}/{}", endpoint, s.repo, revision, p.generic_string());
    auto res = fetch(url, headers);
    if (!res) return pubhub_error(s, "GET " + url + ": " + res.error().describe());
    if (res->status != 200)
      return pubhub_error(s, pubhub_refused(res->status, url, !o.token.empty()));
    if (commit.empty()) {
      commit = res->repo_commit.empty() ? revision : res->repo_commit;
      if (!pubhub_safe_commit(commit))
        return pubhub_error(s, "GET " + url + ": unusable commit id '" + commit + "'");
    }
    if (auto err = pubhub_write(repo_dir / "snapshots" / commit / p, res->body))
      return pubhub_error(s, *err);
  }
  if (commit != revision) {
    if (auto err = pubhub_write(repo_dir / "refs" / revision, commit)) return pubhub_error(s, *err);
  }
  return repo_dir / "snapshots" / commit;
}

}  // namespace inferperf::dataset
