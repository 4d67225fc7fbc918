// baseten_trace (trace-formats §3) read from JSONL: the Parquet columns as one JSON object per row
// (no Debian library reads Parquet; a .parquet/.arrow file gets an error saying how to convert).
// Prompts are verbatim; rows are replayed at their Unix-ms timestamps relative to the first row.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <unordered_map>

#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

bool looks_like_baseten(const ojson& j) {
  return j.contains("timestamp_start_unix_ms") && j.contains("prompt");
}

bool is_columnar_file(const std::filesystem::path& p) {
  const auto ext = p.extension().string();
  return ext == ".parquet" || ext == ".arrow" || ext == ".ipc";
}

core::Error columnar_file_error(const std::string& file) {
  return core::Error{
      core::ErrorKind::kInput,
      "is a Parquet/Arrow file, which inferperf cannot read (no Debian library reads Parquet). "
      "Convert it to JSONL with the same columns, one object per row, e.g. with duckdb: "
      "COPY (SELECT * FROM 'trace.parquet') TO 'trace.jsonl' (FORMAT JSON); or with pyarrow: "
      "pyarrow.parquet.read_table('trace.parquet').to_pandas().to_json('trace.jsonl', "
      "orient='records', lines=True); then pass --input-file trace.jsonl --custom-dataset-type "
      "baseten_trace",
      file, 0, "--input-file"};
}

namespace {

struct BasetenRow {
  long long unix_ms = 0;
  std::optional<std::string> session;
  Turn turn;
  int line = 0;
};

// A session column value as text; null or absent: none.
std::optional<core::Error> session_value(const Row& r, std::string_view column,
                                         std::optional<std::string>& out) {
  const ojson* v = r.get(column);
  if (!v) return std::nullopt;
  if (v->is_string()) {
    out = v->get<std::string>();
  } else if (v->is_number_integer()) {
    out = std::to_string(v->get<long long>());
  } else {
    return r.error(column, "must be a string or an integer, got " + json_type_name(*v));
  }
  return std::nullopt;
}

}  // namespace

std::optional<core::Error> load_baseten(LoadContext& ctx, std::string_view content) {
  const SynthesisOptions& syn = ctx.options.synthesis;
  if (syn.speedup_ratio != 1.0 || syn.prompt_len_multiplier != 1.0 || syn.restructures()) {
    return ctx.error(0, "--synthesis-*",
                     "baseten_trace prompts are verbatim: --synthesis-speedup-ratio, "
                     "--synthesis-prompt-len-multiplier, --synthesis-prefix-len-multiplier and "
                     "--synthesis-prefix-root-multiplier do not apply");
  }
  const char* env = std::getenv("AIPERF_DATASET_BASETEN_SESSION_COLUMN");
  const std::string preferred = env && *env ? env : "provided_session_id";
  const std::string fallback =
      preferred == "provided_session_id" ? "poor_man_session_id" : "provided_session_id";
  std::optional<std::string> column;  // chosen from the first row that has either
  std::vector<BasetenRow> rows;
  std::size_t floored = 0;
  auto err =
      for_each_json_line(content, ctx.file, [&](int line, ojson& j) -> std::optional<core::Error> {
        Row r(j, ctx, line);
        ++ctx.out.lines;
        for (const char* k : {"timestamp_start_unix_ms", "prompt", "input_tokens", "output_tokens"})
          if (!r.has(k)) return r.error(k, "is a required baseten_trace column");
        BasetenRow row;
        row.line = line;
        std::optional<long long> ts, in, out, block;
        std::optional<std::string> prompt;
        if (auto e = r.integer("timestamp_start_unix_ms", ts, 0)) return e;
        if (auto e = r.string("prompt", prompt)) return e;
        if (auto e = r.integer("input_tokens", in, 0)) return e;
        if (auto e = r.integer("output_tokens", out, 0)) return e;
        if (auto e = r.integer("block_size", block, 1)) return e;
        // KV hashes are unsigned 64-bit values: validated, then forwarded exactly as written.
        ojson hashes = ojson::array();
        if (const ojson* h = r.get("total_hashes")) {
          if (!h->is_array())
            return r.error("total_hashes", "must be a list of integers, got " + json_type_name(*h));
          for (std::size_t i = 0; i < h->size(); ++i) {
            const ojson& v = (*h)[i];
            if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
              return r.error(fmt::format("total_hashes[{}]", i), "must be an integer >= 0");
          }
          hashes = *h;
        }
        if (!column && rows.empty()) {
          // The column is chosen from the first row's keys (the Parquet schema); null values then
          // mean "no session" for that row, not "use the other column".
          if (j.contains(preferred))
            column = preferred;
          else if (j.contains(fallback))
            column = fallback;
        }
        if (column) {
          if (auto e = session_value(r, *column, row.session)) return e;
        }
        if (syn.max_isl && *in > *syn.max_isl) {
          ++ctx.out.dropped_rows;
          return std::nullopt;
        }
        long long osl = *out;
        if (osl < 1) osl = 1, ++floored;  // cancelled rows with no output still ask for one token
        osl = synthesized_output_length(osl, syn);
        row.unix_ms = *ts;
        Turn& t = row.turn;
        t.text = std::move(*prompt);
        t.synthetic_tokens = static_cast<int>(std::min<long long>(*in, INT32_MAX));
        t.max_tokens = static_cast<int>(std::min<long long>(osl, INT32_MAX));
        auto extra = std::make_shared<ojson>(ojson::object());
        if (!ctx.options.baseten_no_min_tokens) (*extra)["min_tokens"] = osl;
        if (!ctx.options.baseten_omit_kv_hints) {
          (*extra)["hash_ids"] = hashes;
          if (block) (*extra)["block_size"] = *block;
        }
        if (!extra->empty()) t.extra = std::move(extra);
        rows.push_back(std::move(row));
        return std::nullopt;
      });
  if (err) return err;
  if (rows.empty()) return std::nullopt;
  long long first = rows.front().unix_ms;
  for (const auto& r : rows) first = std::min(first, r.unix_ms);
  // Sessions in order of their first timestamp; rows by timestamp inside a session.
  std::stable_sort(rows.begin(), rows.end(),
                   [](const BasetenRow& a, const BasetenRow& b) { return a.unix_ms < b.unix_ms; });
  std::unordered_map<std::string, std::size_t> by_session;
  auto& convs = ctx.out.dataset.conversations;
  for (auto& r : rows) {
    r.turn.timestamp_ms = static_cast<double>(r.unix_ms - first);
    std::size_t index = convs.size();
    if (r.session) {
      auto [it, fresh] = by_session.try_emplace(*r.session, convs.size());
      index = it->second;
      if (!fresh) {
        convs[index].turns.push_back(std::move(r.turn));
        // A multi-row session's prompts already hold the history.
        convs[index].context_mode = ContextMode::kMessageArrayWithResponses;
        continue;
      }
    }
    Conversation c;
    c.session_id = r.session ? *r.session : core::uuid4(ctx.id_rng);
    c.turns.push_back(std::move(r.turn));
    convs.push_back(std::move(c));
  }
  if (floored > 0) {
    ctx.out.warnings.push_back(
        fmt::format("{}: {} row(s) with output_tokens 0 (cancelled requests) ask for 1 token",
                    ctx.file, floored));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
