#include "app/profile/public_dataset.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "app/http_policy.hpp"
#include "dataset/public_loader.hpp"
#include "transport/http_get.hpp"

namespace inferperf::app {

namespace {

namespace fs = std::filesystem;
using dataset::PublicDatasetSpec;

// AIPerf's cache folder for one-file datasets, relative to the working directory.
constexpr std::string_view kAiperfCacheDir = ".cache/aiperf/datasets";

// ShareGPT is about 650 MB (the deadline is HttpPolicy::dataset_download_timeout).
constexpr std::uint64_t kDownloadLimit = 4ull << 30;

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// huggingface_hub's truth values for its *_OFFLINE variables.
bool env_true(const char* name) {
  std::string v = env_or_empty(name);
  for (auto& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return v == "1" || v == "true" || v == "yes" || v == "on";
}

std::string trim_slashes(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

bool one_file(const PublicDatasetSpec& s) {
  return !s.filename.empty();
}

// Where a downloaded file goes, and where the error message tells users to put it.
fs::path cache_dir(const PublicSourceEnv& e) {
  return e.cache_override.empty() ? e.working_dir / kAiperfCacheDir : e.cache_override;
}

std::string download_url(const PublicDatasetSpec& s, const std::string& endpoint) {
  if (!s.url.empty()) return std::string(s.url);
  return fmt::format("{}/datasets/{}/resolve/{}/{}", trim_slashes(endpoint), s.repo, s.revision,
                     s.filename);
}

std::string source_page(const PublicDatasetSpec& s) {
  if (!s.url.empty()) return std::string(s.url);
  return fmt::format("https://huggingface.co/datasets/{}", s.repo);
}

fs::path hub_snapshot_dir(const PublicDatasetSpec& s, const PublicSourceEnv& e,
                          std::string* commit = nullptr) {
  const auto snap = tokenizer::hub_snapshot(tokenizer::hub_cache_dir(e.hub), "datasets",
                                            std::string(s.repo), std::string(s.revision));
  if (commit) *commit = snap.commit;
  return snap.dir;
}

core::Error no_source(const PublicDatasetSpec& s, const PublicSourceEnv& e,
                      const std::string& why) {
  std::string msg = fmt::format("--public-dataset {}: {}. ", s.name, why);
  if (one_file(s)) {
    msg += fmt::format("Download {} from {} and put it at {}, or give its path with --input-file",
                       s.filename, source_page(s), (cache_dir(e) / s.filename).string());
  } else {
    msg += fmt::format(
        "Put the dataset in the Hugging Face cache (huggingface-cli download --repo-type dataset "
        "{}{}; HF_HUB_CACHE / HF_HOME choose the cache) or give its file or folder with "
        "--input-file",
        s.repo, s.revision == "main" ? "" : fmt::format(" --revision {}", s.revision));
  }
  return core::Error{core::ErrorKind::kInput, msg, "", 0, ""};
}

// Writes `body` to `target` through a temporary file in the same folder and a rename, so no
// half-written file is ever taken for the dataset.
std::optional<std::string> store(const fs::path& target, const std::string& body) {
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (ec) return fmt::format("cannot create {}: {}", target.parent_path().string(), ec.message());
  const fs::path tmp = target.string() + fmt::format(".part-{}", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return fmt::format("cannot write {}", tmp.string());
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return fmt::format("cannot rename {} to {}: {}", tmp.string(), target.string(), ec.message());
  }
  return std::nullopt;
}

// One-file datasets only: the file fetched into the cache.
core::Result<PublicSource> download(const PublicDatasetSpec& s, const PublicSourceEnv& e) {
  const std::string url = download_url(s, e.hf_endpoint);
  const fs::path target = cache_dir(e) / s.filename;
  spdlog::info("--public-dataset {}: no cached copy; downloading {} into {}", s.name, url,
               target.string());
  transport::GetRequest req = e.http.get(url, transport::Peer::kHub);
  if (!e.hf_token.empty() && s.url.empty())
    req.headers.emplace_back("Authorization", "Bearer " + e.hf_token);
  req.timeout = e.http.dataset_download_timeout;
  req.body_limit = kDownloadLimit;
  const auto start = std::chrono::steady_clock::now();
  auto res = transport::http_get(req);
  if (!res) return no_source(s, e, "the download failed (" + res.error().describe() + ")");
  if (res->status != 200) {
    std::string why = fmt::format("the download from {} was refused (HTTP {})", url, res->status);
    if (res->status == 401 || res->status == 403)
      why += e.hf_token.empty() ? "; set HF_TOKEN if the Hub needs a token" : "; check HF_TOKEN";
    return no_source(s, e, why);
  }
  // A proxy's or portal's HTML page is not the dataset: never cache it. ShareGPT is one JSON
  // list, SpecBench JSON Lines of objects.
  const char expected = s.family == dataset::PublicFamily::kShareGpt ? '[' : '{';
  const auto first = res->body.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || res->body[first] != expected) {
    return no_source(s, e,
                     fmt::format("the download from {} is not {} ({} bytes{})", url,
                                 expected == '[' ? "a JSON list" : "JSON Lines", res->body.size(),
                                 res->header("content-type").empty()
                                     ? ""
                                     : ", content type " + res->header("content-type")));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (auto err = store(target, res->body)) return no_source(s, e, *err);
  spdlog::info("--public-dataset {}: downloaded {:.1f} MB in {:.1f} s into {}", s.name,
               static_cast<double>(res->body.size()) / 1e6, seconds, target.string());
  return PublicSource{{target}, "downloaded from " + url};
}

// Datasets of several files: the subset's and split's files fetched into the Hub cache, then
// chosen there as from any snapshot (a Parquet-only split ends in the conversion message).
core::Result<PublicSource> download_hub(const PublicDatasetSpec& s, const PublicSubset& subset,
                                        const PublicSourceEnv& e, const std::string& missing) {
  dataset::PublicHubDownload d;
  d.endpoint = e.hf_endpoint;
  d.token = e.hf_token;
  d.hub_cache = tokenizer::hub_cache_dir(e.hub);
  d.subset = subset.name;
  d.subset_typed = subset.typed;
  spdlog::info("--public-dataset {}: {}; downloading {} (split {}) from {} into {}", s.name,
               missing, s.repo, s.split, e.hf_endpoint, d.hub_cache.string());
  auto snap = dataset::download_public_dataset(s, d, e.fetch);
  if (!snap) return no_source(s, e, "the download failed: " + snap.error().message);
  auto files =
      dataset::select_public_files(*snap, subset.name, subset.typed, std::string(s.split), s.name);
  if (!files) return files.error();
  return PublicSource{std::move(*files), "downloaded from " + e.hf_endpoint};
}

// --input-file: a file is the data (Parquet: its JSONL twin); a folder is searched.
core::Result<PublicSource> from_input_file(const PublicDatasetSpec& s, const std::string& input,
                                           const PublicSubset& subset) {
  std::error_code ec;
  const fs::path p = input;
  if (fs::is_directory(p, ec)) {
    if (one_file(s)) {
      if (fs::is_regular_file(p / s.filename, ec))
        return PublicSource{{p / s.filename}, "--input-file"};
      return core::Error{
          core::ErrorKind::kInput,
          fmt::format("--public-dataset {}: the folder has no {}", s.name, s.filename), input, 0,
          ""};
    }
    auto files =
        dataset::select_public_files(p, subset.name, subset.typed, std::string(s.split), s.name);
    if (!files) return files.error();
    return PublicSource{std::move(*files), "--input-file"};
  }
  if (s.family == dataset::PublicFamily::kShareGpt) return PublicSource{{p}, "--input-file"};
  if (!fs::exists(p, ec)) {
    return core::Error{core::ErrorKind::kInput, "--input-file: the file does not exist", input, 0,
                       ""};
  }
  auto file = dataset::readable_public_file(p, s.name);
  if (!file) return file.error();
  return PublicSource{{*file}, "--input-file"};
}

}  // namespace

PublicSourceEnv public_source_env(const transport::HttpPolicy& http) {
  PublicSourceEnv e;
  e.http = http;
  if (!env_or_empty("HF_ENDPOINT").empty()) e.hf_endpoint = env_or_empty("HF_ENDPOINT");
  e.hf_token = env_or_empty("HF_TOKEN");
  e.offline = env_true("HF_HUB_OFFLINE") || env_true("HF_DATASETS_OFFLINE");
  e.cache_override = env_or_empty("INFERPERF_DATASET_CACHE");
  e.hub = tokenizer::HubCacheEnv{env_or_empty("HF_HUB_CACHE"), env_or_empty("HF_HOME"),
                                 env_or_empty("XDG_CACHE_HOME"), env_or_empty("HOME")};
  std::error_code ec;
  e.working_dir = fs::current_path(ec);
  e.fetch = [http](const std::string& url,
                   const auto& headers) -> core::Result<tokenizer::HubResponse> {
    // The Hub is a third party: only HF_TOKEN (in `headers`) goes there, never the run's key.
    transport::GetRequest req = http.get(url, transport::Peer::kHub);
    req.headers = headers;
    req.timeout = http.dataset_download_timeout;
    req.body_limit = kDownloadLimit;
    auto res = transport::http_get(req);
    if (!res) return res.error();
    return tokenizer::HubResponse{res->status, std::move(res->body), res->header("x-repo-commit")};
  };
  return e;
}

core::Result<PublicSource> resolve_public_source(const PublicDatasetSpec& s,
                                                 const std::string& input_file,
                                                 const PublicSubset& subset,
                                                 const PublicSourceEnv& e) {
  if (!input_file.empty()) return from_input_file(s, input_file, subset);
  std::vector<std::string> tried;
  std::error_code ec;
  if (one_file(s)) {
    std::vector<fs::path> cached;
    if (!e.cache_override.empty()) cached.push_back(e.cache_override / s.filename);
    cached.push_back(e.working_dir / kAiperfCacheDir / s.filename);
    for (const auto& p : cached) {
      if (fs::is_regular_file(p, ec)) return PublicSource{{p}, "cache"};
    }
  }
  if (!s.repo.empty()) {
    std::string commit;
    const fs::path snap = hub_snapshot_dir(s, e, &commit);
    const std::string origin = fmt::format("Hugging Face cache, {}", commit);
    if (one_file(s)) {
      if (fs::is_regular_file(snap / s.filename, ec))
        return PublicSource{{snap / s.filename}, origin};
    } else if (fs::is_directory(snap, ec)) {
      auto files = dataset::select_public_files(snap, subset.name, subset.typed,
                                                std::string(s.split), s.name);
      if (!files) return files.error();
      return PublicSource{std::move(*files), origin};
    }
    tried.push_back(snap.string());
  }
  const std::string looked =
      tried.empty() ? "" : fmt::format(" (looked in the Hugging Face cache at {})", tried.front());
  if (!one_file(s)) {
    const std::string missing = "the dataset is not in the Hugging Face cache" + looked;
    if (e.offline)
      return no_source(s, e,
                       missing + ", and HF_HUB_OFFLINE / HF_DATASETS_OFFLINE forbids a download");
    if (!e.fetch) return no_source(s, e, missing);
    return download_hub(s, subset, e, missing);
  }
  if (e.offline) {
    return no_source(s, e,
                     "no cached copy" + looked +
                         ", and HF_HUB_OFFLINE / HF_DATASETS_OFFLINE forbids a download");
  }
  return download(s, e);
}

}  // namespace inferperf::app
