// --public-dataset: where the dataset's file comes from and how it becomes the run's dataset.
// Sources, first found wins: --input-file; the cache ($INFERPERF_DATASET_CACHE/<file>, then
// .cache/aiperf/datasets/<file> under the working directory, AIPerf's location); a download from
// the Hugging Face Hub (HF_ENDPOINT, HF_TOKEN; never with HF_HUB_OFFLINE=1) into the cache.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "app/profile/dataset_setup.hpp"
#include "config/run_config.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "tokenizer/tokenizer.hpp"
#include "transport/http_policy.hpp"

namespace inferperf::app {

// A dataset file published in a Hugging Face dataset repository.
struct PublicDatasetInfo {
  std::string_view name;      // the --public-dataset value
  std::string_view repo;      // ORG/NAME of the dataset repository
  std::string_view revision;  // branch or commit
  std::string_view filename;  // the file in the repository, and its name in the cache
};

// The registered dataset of that name, or null.
const PublicDatasetInfo* find_public_dataset(std::string_view name);

// What the source resolution reads from the environment (filled from it by
// public_source_env(); tests set the fields themselves).
struct PublicSourceEnv {
  std::string hf_endpoint = "https://huggingface.co";  // HF_ENDPOINT
  std::string hf_token;                                // HF_TOKEN: sent as a bearer token
  bool offline = false;                                // HF_HUB_OFFLINE=1|true: no download
  transport::HttpPolicy http;  // TLS trust and timeouts (the download is a Peer::kHub fetch)
  std::filesystem::path cache_override;  // INFERPERF_DATASET_CACHE
  std::filesystem::path working_dir;     // for .cache/aiperf/datasets
};
PublicSourceEnv public_source_env(const transport::HttpPolicy& http);

struct PublicSource {
  std::filesystem::path path;
  std::string origin;  // for the log: "--input-file", "cache" or "downloaded from URL"
};

// The file to read: `input_file` when given, else the cached copy, else a download into the
// cache (written to a temporary file, then renamed: a failed download leaves nothing behind).
// Without a source the error says where to put the file.
core::Result<PublicSource> resolve_public_source(const PublicDatasetInfo& info,
                                                 const std::string& input_file,
                                                 const PublicSourceEnv& env);

// The run's dataset from --public-dataset: the source resolved, the file loaded and filtered
// (a tokenizer is required), and the counts of entries read, skipped and kept logged.
core::Result<PreparedDataset> load_public_dataset(const config::RunConfig& c,
                                                  const core::RngFactory& rngs,
                                                  const tokenizer::Tokenizer* tok);

}  // namespace inferperf::app
