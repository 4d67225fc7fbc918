// Trace loading at scale: load a trace (parse, validate, hash-id blocks), build every request's
// body once and stream inputs.json, timing each step and reporting the peak RSS.
//
//   inferperf_dataset_bench TRACE.jsonl OUT_DIR [TOKENIZER_JSON] [TYPE]
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>

#include "app/profile/run_inputs.hpp"
#include "artifacts/run_folder.hpp"
#include "dataset/custom_loader.hpp"
#include "dataset/prompt_blocks.hpp"
#include "endpoint/endpoint.hpp"
#include "tokenizer/hf_tokenizer.hpp"

namespace fs = std::filesystem;
using namespace inferperf;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: inferperf_dataset_bench TRACE.jsonl OUT_DIR [TOKENIZER_JSON] [TYPE]\n";
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<tokenizer::HfTokenizer> tok;
  if (argc > 3 && std::string(argv[3]) != "-") {
    auto loaded = tokenizer::HfTokenizer::load(argv[3]);
    if (!loaded) {
      std::cerr << loaded.error().describe() << "\n";
      return 2;
    }
    tok = std::move(*loaded);
  }
  const double t_tok = seconds_since(start);
  dataset::CustomLoadOptions o;
  o.path = argv[1];
  o.type = argc > 4 ? std::string(argv[4]) : std::string("mooncake_trace");
  o.tokenizer = tok.get();
  o.seed = 42;
  std::mt19937_64 ids(1);
  auto t0 = std::chrono::steady_clock::now();
  auto loaded = dataset::load_custom_dataset(o, ids);
  if (!loaded) {
    std::cerr << loaded.error().describe() << "\n";
    return 2;
  }
  const double t_load = seconds_since(t0);
  const auto endpoint = endpoint::make_endpoint(config::EndpointType::kChat);
  worker::RequestPlan plan;
  plan.endpoint = endpoint.get();
  plan.body_options.model = "bench-model";
  plan.body_options.streaming = true;
  plan.dataset = &loaded->dataset;
  fs::create_directories(argv[2]);
  t0 = std::chrono::steady_clock::now();
  app::prebuild_first_bodies(loaded->dataset, plan);
  app::InputsJsonWriter writer(fs::path(argv[2]) / artifacts::kInputsFileName, loaded->dataset,
                               plan, /*reserved=*/false, /*background=*/false);
  auto written = writer.finish();
  if (!written) {
    std::cerr << written.error().describe() << "\n";
    return 1;
  }
  const double t_inputs = seconds_since(t0);
  const auto* blocks = loaded->dataset.blocks.get();
  fmt::print(
      "records {}  conversations {}  unique blocks {} ({:.1f} MB of text)\n"
      "tokenizer load {:.2f} s  trace load + blocks {:.2f} s  inputs.json {:.2f} s ({:.0f} MB, "
      "{} payloads)\n"
      "total {:.2f} s  peak RSS {:.0f} MB\n",
      loaded->lines, loaded->dataset.conversations.size(), blocks ? blocks->size() : 0,
      blocks ? static_cast<double>(blocks->text_bytes()) / 1e6 : 0.0, t_tok, t_load, t_inputs,
      static_cast<double>(written->bytes) / 1e6, written->payloads, seconds_since(start),
      peak_rss_mb());
  return 0;
}
