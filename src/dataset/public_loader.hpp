// Reading a public dataset's records (public_registry.hpp): which data files of a folder (a Hub
// cache snapshot or the user's folder) hold the subset and split, and the records of those JSON /
// JSONL files turned into conversations. Parquet files cannot be read (Debian 12 has no Parquet
// library): the error names the file and a one-line conversion to JSON Lines next to it, which
// is then read instead.
#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "dataset/public_registry.hpp"
#include "tokenizer/hub_download.hpp"

namespace inferperf::dataset {

// The data files of `folder` for `subset` ("" = any) and `split`, in path order. `subset_typed`:
// the subset came from --hf-subset, so a folder without it is an error rather than a fallback to
// every file. A Parquet file with a .jsonl or .json twin (same name) is replaced by the twin;
// a Parquet file without one is an error.
core::Result<std::vector<std::filesystem::path>> select_public_files(
    const std::filesystem::path& folder, const std::string& subset, bool subset_typed,
    const std::string& split, std::string_view dataset_name);

// The same choice among paths relative to a folder (a Hub listing; `where` names it in errors):
// the data files of the subset and split, Parquet included.
core::Result<std::vector<std::filesystem::path>> choose_public_paths(
    const std::vector<std::filesystem::path>& relative_paths, const std::string& subset,
    bool subset_typed, const std::string& split, std::string_view dataset_name,
    const std::filesystem::path& where);

// A file given directly: itself, or its .jsonl/.json twin when it is Parquet.
core::Result<std::filesystem::path> readable_public_file(const std::filesystem::path& file,
                                                         std::string_view dataset_name);

// The error for a Parquet file without a twin: what to run to convert it.
core::Error parquet_error(const std::filesystem::path& file, std::string_view dataset_name,
                          std::size_t more_files = 0);

// Downloading a Hub dataset's subset and split into the Hugging Face cache layout.
struct PublicHubDownload {
  std::string endpoint = "https://huggingface.co";  // HF_ENDPOINT
  std::string token;                                // HF_TOKEN
  std::filesystem::path hub_cache;                  // where datasets--ORG--NAME/ goes
  std::string subset;
  bool subset_typed = false;
};
// Lists the repository (GET ENDPOINT/api/datasets/REPO/tree/REVISION?recursive=true), chooses the
// subset's and split's data files as for a folder (a JSONL/JSON file wins over a Parquet file of
// the same name), fetches them into snapshots/<commit>/<path> (the commit from the first file's
// X-Repo-Commit) and writes refs/<revision>. Returns the snapshot folder.
core::Result<std::filesystem::path> download_public_dataset(const PublicDatasetSpec& spec,
                                                            const PublicHubDownload& options,
                                                            const tokenizer::HubFetch& fetch);

struct PublicLoadOptions {
  const PublicDatasetSpec* spec = nullptr;
  std::vector<std::filesystem::path> files;
  std::optional<std::size_t> max_conversations;  // a typed entry count caps what is read
};

struct PublicLoaded {
  Dataset dataset;
  std::size_t records = 0;  // records read
  std::size_t skipped = 0;  // records without a prompt
};

// kInstruction, kMtBench and kSpecBench records (ShareGPT has its own loader). Errors name the
// file and line; `id_rng` draws the session ids.
core::Result<PublicLoaded> load_public_records(const PublicLoadOptions& options,
                                               std::mt19937_64& id_rng);

}  // namespace inferperf::dataset
