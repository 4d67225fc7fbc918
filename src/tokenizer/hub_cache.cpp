#include "tokenizer/hub_cache.hpp"

#include <fstream>

namespace inferperf::tokenizer {

namespace fs = std::filesystem;

fs::path hub_cache_dir(const HubCacheEnv& e) {
  if (!e.hf_hub_cache.empty()) return e.hf_hub_cache;
  if (!e.hf_home.empty()) return fs::path(e.hf_home) / "hub";
  if (!e.xdg_cache_home.empty()) return fs::path(e.xdg_cache_home) / "huggingface" / "hub";
  return fs::path(e.home.empty() ? "/root" : e.home) / ".cache" / "huggingface" / "hub";
}

std::string hub_repo_folder(const std::string& kind, const std::string& repo) {
  std::string folder = kind + "--" + repo;
  for (std::size_t p; (p = folder.find('/')) != std::string::npos;) folder.replace(p, 1, "--");
  return folder;
}

HubSnapshot hub_snapshot(const fs::path& cache, const std::string& kind, const std::string& repo,
                         const std::string& revision) {
  const fs::path repo_dir = cache / hub_repo_folder(kind, repo);
  std::string commit = revision;
  if (std::ifstream ref(repo_dir / "refs" / revision); ref) {
    std::string line;
    if (std::getline(ref, line) && !line.empty()) commit = line;
  }
  return HubSnapshot{repo_dir / "snapshots" / commit, commit};
}

}  // namespace inferperf::tokenizer
