// Downloads a model's tokenizer files from the Hugging Face Hub (or a compatible HF_ENDPOINT) into
// the local Hub cache layout, so later runs resolve them offline. The HTTP client is passed in,
// which keeps this module free of sockets and lets tests use any server.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace inferperf::tokenizer {

struct HubResponse {
  int status = 0;
  std::string body;
  std::string repo_commit;  // X-Repo-Commit header, when present
};
using HubFetch = std::function<core::Result<HubResponse>(
    const std::string& url, const std::vector<std::pair<std::string, std::string>>& headers)>;

struct HubDownloadOptions {
  std::string endpoint = "https://huggingface.co";  // HF_ENDPOINT
  std::string token;                                // HF_TOKEN
  std::string repo;                                 // ORG/NAME
  std::string revision = "main";
  std::filesystem::path hub_cache;  // where models--ORG--NAME/ lives
};

// Returns the downloaded tokenizer file (tokenizer.json, else tokenizer.model).
core::Result<std::filesystem::path> download_tokenizer(const HubDownloadOptions& options,
                                                       const HubFetch& fetch);

}  // namespace inferperf::tokenizer
