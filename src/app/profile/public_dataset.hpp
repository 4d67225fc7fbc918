// --public-dataset: where the dataset's files come from and how they become the run's dataset.
// Sources, first found wins: --input-file (a file, or a folder searched for the subset and
// split); for one-file datasets (sharegpt, spec_bench) the cache ($INFERPERF_DATASET_CACHE/<file>,
// then .cache/aiperf/datasets/<file> under the working directory, AIPerf's location); the
// Hugging Face cache (HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub:
// datasets--ORG--NAME/snapshots/<commit>, refs/<revision> naming the commit); for one-file
// datasets a download into AIPerf's cache, for the others a download of the subset's and split's
// files into the Hugging Face cache (HF_ENDPOINT, HF_TOKEN; never with HF_HUB_OFFLINE or
// HF_DATASETS_OFFLINE).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "app/profile/dataset_setup.hpp"
#include "config/run_config.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "dataset/public_registry.hpp"
#include "tokenizer/hub_cache.hpp"
#include "tokenizer/hub_download.hpp"
#include "tokenizer/tokenizer.hpp"
#include "transport/http_policy.hpp"

namespace inferperf::app {

// What the source resolution reads from the environment (filled from it by
// public_source_env(); tests set the fields themselves).
struct PublicSourceEnv {
  std::string hf_endpoint = "https://huggingface.co";  // HF_ENDPOINT
  std::string hf_token;                                // HF_TOKEN: sent as a bearer token
  bool offline = false;        // HF_HUB_OFFLINE or HF_DATASETS_OFFLINE = 1|true|yes|on: no download
  transport::HttpPolicy http;  // TLS trust and timeouts (the download is a Peer::kHub fetch)
  std::filesystem::path cache_override;  // INFERPERF_DATASET_CACHE
  std::filesystem::path working_dir;     // for .cache/aiperf/datasets
  tokenizer::HubCacheEnv hub;            // HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME, HOME
  // Hub requests for datasets of several files (null: no download); public_source_env() sends
  // them through transport::http_get under `http`.
  tokenizer::HubFetch fetch;
};
PublicSourceEnv public_source_env(const transport::HttpPolicy& http);

struct PublicSource {
  std::vector<std::filesystem::path> files;  // read in this order
  std::string origin;  // for the log: "--input-file", "cache", "Hugging Face cache, <commit>"...
};

// The subset read: --hf-subset when typed, else the dataset's default.
struct PublicSubset {
  std::string name;
  bool typed = false;
};

// The files to read. Without a source the error lists the places looked at and says where to
// put the files (or, for Parquet-only data, how to convert them).
core::Result<PublicSource> resolve_public_source(const dataset::PublicDatasetSpec& spec,
                                                 const std::string& input_file,
                                                 const PublicSubset& subset,
                                                 const PublicSourceEnv& env);

// The run's dataset from --public-dataset: the filters checked, the source resolved, the files
// loaded (sharegpt needs a tokenizer), a typed entry count applied as a cap, the counts logged.
core::Result<PreparedDataset> load_public_dataset(const config::RunConfig& c,
                                                  const core::RngFactory& rngs,
                                                  const tokenizer::Tokenizer* tok);

}  // namespace inferperf::app
