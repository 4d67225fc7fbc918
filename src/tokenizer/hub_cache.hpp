// The local Hugging Face Hub cache layout, shared by tokenizers (models--ORG--NAME) and public
// datasets (datasets--ORG--NAME): which folder holds the cache, and which snapshot a revision
// names (refs/<revision> holds the commit; a commit id names its snapshot folder directly).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace inferperf::tokenizer {

// The environment the cache location depends on (tests fill it themselves).
struct HubCacheEnv {
  std::string hf_hub_cache;    // HF_HUB_CACHE
  std::string hf_home;         // HF_HOME (the cache is its hub/ folder)
  std::string xdg_cache_home;  // XDG_CACHE_HOME
  std::string home;            // HOME
};

// The cache folder: HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub.
std::filesystem::path hub_cache_dir(const HubCacheEnv& env);

// "models" or "datasets" + "--" + ORG--NAME: a repository's folder name in the cache.
std::string hub_repo_folder(const std::string& kind, const std::string& repo);

struct HubSnapshot {
  std::filesystem::path dir;  // <cache>/<kind>--ORG--NAME/snapshots/<commit>
  std::string commit;         // what refs/<revision> names, or the revision itself
};
// The snapshot folder of `repo` at `revision` (its path whether or not it exists).
HubSnapshot hub_snapshot(const std::filesystem::path& cache, const std::string& kind,
                         const std::string& repo, const std::string& revision);

}  // namespace inferperf::tokenizer
