// Accuracy against the mock server's own write times: joins the client's records file
// (artifacts::kRecordsFileName in the artifact dir) with the mock's --token-log on X-Request-ID and
// prints the distribution of the client's timestamp errors.
//
//   inferperf_accuracy_compare ARTIFACT_DIR_OR_RECORDS_FILE TOKEN_LOG [ITL_P99_US] [TTFT_P99_US]
//
// Per-event arrival error: client content-event stamp i - mock write i (only requests whose event
// counts agree, one event per mock write). TTFT error: client first content event - mock first
// write. ITL error: the client's per-request ITL over its own stamps, (last - first) / (n - 1),
// minus the mock's mean write spacing over the same events; the client's reported ITL divides by
// its tokenizer's count instead, which differs only when the tokenizers disagree, a counting
// difference and not a timing one. Both files hold wall-clock ns converted from steady_clock
// through one anchor per process, so they compare to the anchors' capture error (< 1 us).
// Exit status: 0 when joined and both targets are met, 1 when a target is missed, 2 when nothing
// joined or the input is unreadable.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "artifacts/run_folder.hpp"
#include "records/record_jsonl.hpp"

namespace {

struct MockLine {
  std::int64_t received_ns = 0;
  std::vector<std::int64_t> writes_ns;
};

struct Dist {
  std::vector<double> v;
  // Linear-interpolated percentile (numpy's default), as the client's own statistics.
  double pct(double p) const {
    if (v.empty()) return NAN;
    const double pos = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
  }
  void finish() { std::sort(v.begin(), v.end()); }
};

// The p99 of |error|: a target bounds the error either way.
double abs_p99(const Dist& d) {
  Dist a;
  for (const double x : d.v) a.v.push_back(std::abs(x));
  a.finish();
  return a.pct(99);
}

void print_row(const char* name, const Dist& d) {
  if (d.v.empty()) {
    fmt::print("{:<25} no samples\n", name);
    return;
  }
  fmt::print(
      "{:<25} n {:>7}  min {:>8.1f}  p50 {:>8.1f}  p99 {:>8.1f}  max {:>9.1f}  |err| p99 {:>8.1f} "
      "us\n",
      name, d.v.size(), d.v.front(), d.pct(50), d.pct(99), d.v.back(), abs_p99(d));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: inferperf_accuracy_compare ARTIFACT_DIR|RECORDS_FILE TOKEN_LOG "
                 "[ITL_P99_US (50)] [TTFT_P99_US (200)]\n";
    return 2;
  }
  std::filesystem::path records_path = argv[1];
  if (std::filesystem::is_directory(records_path))
    records_path /= inferperf::artifacts::kRecordsFileName;
  const double itl_bound = argc > 3 ? std::atof(argv[3]) : 50.0;
  const double ttft_bound = argc > 4 ? std::atof(argv[4]) : 200.0;

  std::unordered_map<std::string, MockLine> mock;
  std::size_t mock_lines = 0, mock_no_id = 0;
  {
    std::ifstream in(argv[2]);
    if (!in) {
      std::cerr << "cannot read " << argv[2] << "\n";
      return 2;
    }
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      ++mock_lines;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("x_request_id") || !j["x_request_id"].is_string()) {
        ++mock_no_id;
        continue;
      }
      mock[j["x_request_id"].get<std::string>()] =
          MockLine{j.value("received_ns", std::int64_t{0}),
                   j.value("writes_ns", std::vector<std::int64_t>{})};
    }
  }

  std::ifstream in(records_path);
  if (!in) {
    std::cerr << "cannot read " << records_path << "\n";
    return 2;
  }
  Dist event_err, ttft_err, itl_err, send_to_received;
  std::size_t records = 0, joined = 0, count_mismatch = 0, skipped = 0;
  std::uint64_t reads = 0, kernel_reads = 0;  // over the joined records
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    ++records;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || j.value("phase", "") != "profiling" || j.contains("error")) {
      ++skipped;
      continue;
    }
    const auto it = mock.find(j.value("x_request_id", ""));
    if (it == mock.end()) continue;
    ++joined;
    reads += j.value("reads", 0u);
    kernel_reads += j.value("kernel_stamped_reads", 0u);
    std::vector<std::int64_t> client;
    for (const auto& e : j.at("content_events")) client.push_back(e.at(0).get<std::int64_t>());
    const auto& writes = it->second.writes_ns;
    if (client.empty() || writes.empty()) continue;
    // Loopback plus the mock's read and parse: how long the request took to reach the handler.
    if (const auto sent = j.value("send_end_ns", std::int64_t{0}); sent > 0)
      send_to_received.v.push_back(static_cast<double>(it->second.received_ns - sent) / 1e3);
    ttft_err.v.push_back(static_cast<double>(client.front() - writes.front()) / 1e3);
    if (client.size() != writes.size()) {
      ++count_mismatch;  // coalesced or split events: no per-event pairing
      continue;
    }
    for (std::size_t i = 0; i < client.size(); ++i)
      event_err.v.push_back(static_cast<double>(client[i] - writes[i]) / 1e3);
    if (client.size() >= 2) {
      const auto n1 = static_cast<double>(client.size() - 1);
      const double client_itl = static_cast<double>(client.back() - client.front()) / n1;
      const double mock_itl = static_cast<double>(writes.back() - writes.front()) / n1;
      itl_err.v.push_back((client_itl - mock_itl) / 1e3);
    }
  }
  event_err.finish();
  ttft_err.finish();
  itl_err.finish();
  send_to_received.finish();

  fmt::print("records {} (skipped: warmup or failed {}), mock lines {} (without id {}), joined {}",
             records, skipped, mock_lines, mock_no_id, joined);
  fmt::print(", event-count mismatches {}\n", count_mismatch);
  if (joined == 0) {
    std::cerr << "nothing joined on x_request_id: was the mock started with --token-log?\n";
    return 2;
  }
  // Which stamp the reads carried: the kernel's receive time (plain TCP) or the clock read after
  // the read (TLS, Unix sockets, or a build without kernel stamps).
  fmt::print("read stamps: kernel receive time on {} of {} reads ({:.1f} %)\n", kernel_reads, reads,
             reads ? 100.0 * static_cast<double>(kernel_reads) / static_cast<double>(reads) : 0.0);
  print_row("per-event arrival error", event_err);
  print_row("TTFT error", ttft_err);
  print_row("ITL error", itl_err);
  print_row("send end -> mock handler", send_to_received);
  const double itl_p99 = abs_p99(itl_err), ttft_p99 = abs_p99(ttft_err);
  const bool itl_ok = !itl_err.v.empty() && std::abs(itl_p99) <= itl_bound;
  const bool ttft_ok = !ttft_err.v.empty() && std::abs(ttft_p99) <= ttft_bound;
  fmt::print("target ITL error p99 <= {} us: {} (|err| p99 {:.1f} us)\n", itl_bound,
             itl_ok ? "met" : "MISSED", itl_p99);
  fmt::print("target TTFT error p99 <= {} us: {} (|err| p99 {:.1f} us)\n", ttft_bound,
             ttft_ok ? "met" : "MISSED", ttft_p99);
  return itl_ok && ttft_ok ? 0 : 1;
}
