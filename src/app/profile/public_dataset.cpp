#include "app/profile/public_dataset.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "app/http_policy.hpp"
#include "dataset/sharegpt_loader.hpp"
#include "transport/http_get.hpp"

namespace inferperf::app {

namespace {

namespace fs = std::filesystem;

constexpr std::array<PublicDatasetInfo, 1> kPublicDatasets = {{
    {"sharegpt", "anon8231489123/ShareGPT_Vicuna_unfiltered", "main",
     "ShareGPT_V3_unfiltered_cleaned_split.json"},
}};

// AIPerf's cache folder, relative to the working directory.
constexpr std::string_view kAiperfCacheDir = ".cache/aiperf/datasets";

// The file is about 650 MB (the deadline is HttpPolicy::dataset_download_timeout).
constexpr std::uint64_t kDownloadLimit = 4ull << 30;

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string trim_slashes(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

// Where a downloaded file goes, and where the error message tells users to put it.
fs::path cache_dir(const PublicSourceEnv& e) {
  return e.cache_override.empty() ? e.working_dir / kAiperfCacheDir : e.cache_override;
}

std::string dataset_url(const PublicDatasetInfo& info, const std::string& endpoint) {
  return fmt::format("{}/datasets/{}/resolve/{}/{}", trim_slashes(endpoint), info.repo,
                     info.revision, info.filename);
}

std::string repo_page(const PublicDatasetInfo& info) {
  return fmt::format("https://huggingface.co/datasets/{}", info.repo);
}

core::Error no_source(const PublicDatasetInfo& info, const PublicSourceEnv& e,
                      const std::string& why) {
  return core::Error{
      core::ErrorKind::kInput,
      fmt::format("--public-dataset {}: {}. Download {} from {} and put it at {}, or give its "
                  "path with --input-file",
                  info.name, why, info.filename, repo_page(info),
                  (cache_dir(e) / info.filename).string()),
      "", 0, ""};
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

core::Result<PublicSource> download(const PublicDatasetInfo& info, const PublicSourceEnv& e) {
  const std::string url = dataset_url(info, e.hf_endpoint);
  const fs::path target = cache_dir(e) / info.filename;
  spdlog::info("--public-dataset {}: no cached copy; downloading {} into {} (about 650 MB)",
               info.name, url, target.string());
  transport::GetRequest req = e.http.get(url, transport::Peer::kHub);
  if (!e.hf_token.empty()) req.headers.emplace_back("Authorization", "Bearer " + e.hf_token);
  req.timeout = e.http.dataset_download_timeout;
  req.body_limit = kDownloadLimit;
  const auto start = std::chrono::steady_clock::now();
  auto res = transport::http_get(req);
  if (!res) return no_source(info, e, "the download failed (" + res.error().describe() + ")");
  if (res->status != 200) {
    std::string why = fmt::format("the download from {} was refused (HTTP {})", url, res->status);
    if (res->status == 401 || res->status == 403)
      why += e.hf_token.empty() ? "; set HF_TOKEN if the Hub needs a token" : "; check HF_TOKEN";
    return no_source(info, e, why);
  }
  // A proxy's or portal's HTML page is not the dataset: never cache it.
  const auto first = res->body.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || res->body[first] != '[') {
    return no_source(
        info, e,
        fmt::format("the download from {} is not a JSON list ({} bytes{})", url, res->body.size(),
                    res->header("content-type").empty()
                        ? ""
                        : ", content type " + res->header("content-type")));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (auto err = store(target, res->body)) return no_source(info, e, *err);
  spdlog::info("--public-dataset {}: downloaded {:.1f} MB in {:.1f} s into {}", info.name,
               static_cast<double>(res->body.size()) / 1e6, seconds, target.string());
  return PublicSource{target, "downloaded from " + url};
}

}  // namespace

const PublicDatasetInfo* find_public_dataset(std::string_view name) {
  for (const auto& d : kPublicDatasets)
    if (d.name == name) return &d;
  return nullptr;
}

PublicSourceEnv public_source_env(const transport::HttpPolicy& http) {
  PublicSourceEnv e;
  e.http = http;
  if (!env_or_empty("HF_ENDPOINT").empty()) e.hf_endpoint = env_or_empty("HF_ENDPOINT");
  e.hf_token = env_or_empty("HF_TOKEN");
  e.offline = env_or_empty("HF_HUB_OFFLINE") == "1" || env_or_empty("HF_HUB_OFFLINE") == "true";
  e.cache_override = env_or_empty("INFERPERF_DATASET_CACHE");
  std::error_code ec;
  e.working_dir = fs::current_path(ec);
  return e;
}

core::Result<PublicSource> resolve_public_source(const PublicDatasetInfo& info,
                                                 const std::string& input_file,
                                                 const PublicSourceEnv& e) {
  if (!input_file.empty()) return PublicSource{input_file, "--input-file"};
  std::vector<fs::path> cached;
  if (!e.cache_override.empty()) cached.push_back(e.cache_override / info.filename);
  cached.push_back(e.working_dir / kAiperfCacheDir / info.filename);
  for (const auto& p : cached) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return PublicSource{p, "cache"};
  }
  if (e.offline) return no_source(info, e, "no cached copy, and HF_HUB_OFFLINE forbids a download");
  return download(info, e);
}

core::Result<PreparedDataset> load_public_dataset(const config::RunConfig& c,
                                                  const core::RngFactory& rngs,
                                                  const tokenizer::Tokenizer* tok) {
  const PublicDatasetInfo* info = find_public_dataset(c.input.public_dataset);
  if (!info) {
    return core::Error{core::ErrorKind::kConfig,
                       "unknown --public-dataset " + c.input.public_dataset + " (known: sharegpt)",
                       "", 0, ""};
  }
  if (!tok) {
    return core::Error{core::ErrorKind::kConfig,
                       fmt::format("--public-dataset {} filters conversations by their token "
                                   "counts: it needs --tokenizer",
                                   info->name),
                       "", 0, ""};
  }
  auto source =
      resolve_public_source(*info, c.input.input_file, public_source_env(make_http_policy(c)));
  if (!source) return source.error();
  spdlog::info("--public-dataset {}: reading {} ({})", info->name, source->path.string(),
               source->origin);

  const auto start = std::chrono::steady_clock::now();
  dataset::ShareGptOptions o;
  o.path = source->path;
  o.tokenizer = tok;
  o.check_min_completion = !c.input.osl_mean;  // AIPerf: an OSL mean lifts the minimum
  auto session_rng = rngs.stream("dataset.session_id");
  auto loaded = dataset::load_sharegpt(o, session_rng);
  if (!loaded) return loaded.error();
  std::size_t turns = 0;
  for (const auto& conv : loaded->dataset.conversations) turns += conv.turns.size();
  spdlog::info(
      "dataset: {} ({}: {} entries read, {} skipped ({} without a usable human/gpt pair, {} "
      "outside the token limits), {} kept with {} turns; {:.1f} s)",
      source->path.string(), info->name, loaded->entries, loaded->skipped(), loaded->no_pairs,
      loaded->out_of_limits, loaded->kept(), turns,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (loaded->renamed_ids > 0) {
    spdlog::warn("{} entries repeat an earlier entry's id: their session ids got a #N suffix",
                 loaded->renamed_ids);
  }
  if (loaded->entries == 0) {
    return core::Error{core::ErrorKind::kInput, "holds no entries (an empty list)",
                       source->path.string(), 0, ""};
  }
  if (loaded->kept() == 0) {
    return core::Error{
        core::ErrorKind::kInput,
        fmt::format("no entry passed the {} filter (prompt {}-{} tokens{}, "
                    "prompt + completion at most {})",
                    info->name, dataset::kShareGptMinTokens, dataset::kShareGptMaxPromptTokens,
                    o.check_min_completion
                        ? fmt::format(", completion at least {}", dataset::kShareGptMinTokens)
                        : "",
                    dataset::kShareGptMaxTotalTokens),
        source->path.string(), 0, ""};
  }
  PreparedDataset out;
  out.type_name = std::string(info->name);
  out.dataset = std::move(loaded->dataset);
  return out;
}

}  // namespace inferperf::app
