// burst_gpt_trace (trace-formats §5): BurstGPT CSV. Every row is one single-turn request at its
// timestamp (seconds); prompts are fresh text of the row's request token count.
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "core/uuid.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

namespace {

// One CSV record's cells (RFC 4180 quoting; the BurstGPT files do not quote, others may).
std::vector<std::string> csv_cells(std::string_view line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back().push_back('"'), ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back().push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back().push_back(c);
    }
  }
  for (auto& cell : cells) {
    const auto b = cell.find_first_not_of(' ');
    cell =
        b == std::string::npos ? std::string() : cell.substr(b, cell.find_last_not_of(' ') - b + 1);
  }
  return cells;
}

template <typename T>
bool parse_cell(const std::string& s, T& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::optional<core::Error> load_burst_gpt(LoadContext& ctx, std::string_view content) {
  const SynthesisOptions& syn = ctx.options.synthesis;
  std::size_t pos = 0;
  int line_no = 0;
  std::vector<std::string> header;
  int col_ts = -1, col_req = -1, col_resp = -1;
  std::size_t skipped = 0;
  int first_skipped = 0;
  while (pos < content.size()) {
    std::size_t end = content.find('\n', pos);
    if (end == std::string_view::npos) end = content.size();
    const std::string_view line = content.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto cells = csv_cells(line);
    if (header.empty()) {
      header = std::move(cells);
      for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "Timestamp") col_ts = static_cast<int>(i);
        if (header[i] == "Request tokens") col_req = static_cast<int>(i);
        if (header[i] == "Response tokens") col_resp = static_cast<int>(i);
      }
      for (auto [col, name] : {std::pair{col_ts, "Timestamp"}, std::pair{col_req, "Request tokens"},
                               std::pair{col_resp, "Response tokens"}}) {
        if (col < 0) {
          return ctx.error(line_no, name,
                           fmt::format("the CSV header has no '{}' column (a burst_gpt_trace file "
                                       "needs Timestamp, Request tokens and Response tokens)",
                                       name));
        }
      }
      continue;
    }
    ++ctx.out.lines;
    double ts = 0;
    long long req = 0, resp = 0;
    const auto need = static_cast<std::size_t>(std::max({col_ts, col_req, col_resp}));
    if (cells.size() <= need || !parse_cell(cells[static_cast<std::size_t>(col_ts)], ts) ||
        !parse_cell(cells[static_cast<std::size_t>(col_req)], req) ||
        !parse_cell(cells[static_cast<std::size_t>(col_resp)], resp) || !std::isfinite(ts) ||
        ts < 0 || req < 1 || resp < 0 || req > INT32_MAX) {
      // Upstream skips rows it cannot parse; a count and the first line say so here.
      if (skipped++ == 0) first_skipped = line_no;
      continue;
    }
    if (syn.max_isl && req > *syn.max_isl) {
      ++ctx.out.dropped_rows;
      continue;
    }
    Turn t;
    t.timestamp_ms = ts * 1000.0 / syn.speedup_ratio;
    const long long osl = synthesized_output_length(resp, syn);
    if (osl > 0) t.max_tokens = static_cast<int>(std::min<long long>(osl, INT32_MAX));
    int length = static_cast<int>(req);
    if (syn.prompt_len_multiplier != 1.0)
      length = std::max(1, static_cast<int>(std::lround(length * syn.prompt_len_multiplier)));
    if (auto e = ctx.synthesize(line_no, "Request tokens", length, {}, t)) return e;
    Conversation c;
    c.session_id = core::uuid4(ctx.id_rng);
    c.turns.push_back(std::move(t));
    ctx.out.dataset.conversations.push_back(std::move(c));
  }
  if (header.empty()) return ctx.error(0, "", "the CSV file has no header");
  if (skipped > 0) {
    ctx.out.warnings.push_back(fmt::format(
        "{}: skipped {} row(s) that do not parse as Timestamp >= 0, Request tokens >= 1, "
        "Response tokens >= 0 (first at line {})",
        ctx.file, skipped, first_skipped));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
