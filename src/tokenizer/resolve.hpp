// Finding the tokenizer for --tokenizer NAME (default: the model name): "builtin", a local file or
// folder, or the Hugging Face cache layout. Placeholder names fall back to the builtin tokenizer.
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tokenizer/hub_download.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::tokenizer {

struct ResolveOptions {
  std::string name;                   // --tokenizer, or the model name
  std::string revision = "main";      // --tokenizer-revision
  std::filesystem::path builtin_dir;  // folder holding the builtin tokenizer.json
  // Environment, passed in so tests control it: HF_HOME, HF_HUB_CACHE, HOME.
  std::string hf_home, hf_hub_cache, home, xdg_cache_home;
  // Hub download on a cache miss (skipped when fetch is null or offline is set).
  const HubFetch* fetch = nullptr;
  std::string hf_endpoint = "https://huggingface.co";  // HF_ENDPOINT
  std::string hf_token;                                // HF_TOKEN
  bool offline = false;                                // HF_HUB_OFFLINE
  // How the name was given, for errors: "--tokenizer", or "-m" when it is the model name.
  std::string flag = "--tokenizer";
};

struct Resolved {
  std::filesystem::path file;  // tokenizer.json or a SentencePiece .model
  std::string description;     // what the user sees: "builtin (o200k)", a path, a cache entry
  std::string notice;          // non-empty when a fallback was taken
};

// A name written as a local path (absolute, ./ ../ ~ or more than one '/': a Hub id is ORG/NAME)
// is looked for on disk only and never sent to the network; `home` expands a leading ~. Nullopt:
// the name may be a Hub repository id.
std::optional<std::filesystem::path> local_path_form(const std::string& name,
                                                     const std::string& home);

// Every place looked at is listed in the error when nothing is found.
core::Result<Resolved> resolve_tokenizer(const ResolveOptions& options);
// Loads a tokenizer.json (Hugging Face) or a .model (SentencePiece) file.
core::Result<std::unique_ptr<Tokenizer>> load_tokenizer_file(const std::filesystem::path& file);
// Folder of the builtin tokenizer for a binary at `exe`: <exe
// dir>/../share/inferperf/tokenizers/builtin.
std::filesystem::path builtin_dir_for(const std::filesystem::path& exe);
// Names that only ever appear in tests and demos ("mock-model", "test-model", "dummy"...).
bool is_placeholder_model_name(const std::string& name);

}  // namespace inferperf::tokenizer
