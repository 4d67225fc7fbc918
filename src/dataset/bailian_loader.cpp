// bailian_trace (trace-formats §2): Alibaba Bailian usage traces. Rows are linked into sessions by
// parent_chat_id; every row is a self-contained request with its own timestamp (seconds).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

bool looks_like_bailian(const ojson& j) {
  for (const char* k : {"chat_id", "timestamp", "input_length", "output_length"})
    if (!j.contains(k)) return false;
  return true;
}

namespace {
struct BailianRow {
  long long chat_id = 0;
  long long parent = -1;
  long long turn = 1;
  int line = 0;
  Turn t;
};
}  // namespace

std::optional<core::Error> load_bailian(LoadContext& ctx, std::string_view content) {
  const SynthesisOptions& syn = ctx.options.synthesis;
  std::vector<BailianRow> rows;
  std::unordered_map<long long, std::size_t> by_id;
  auto err =
      for_each_json_line(content, ctx.file, [&](int line, ojson& j) -> std::optional<core::Error> {
        Row r(j, ctx, line);
        ++ctx.out.lines;
        for (const char* k : {"chat_id", "timestamp", "input_length", "output_length"})
          if (!r.has(k)) return r.error(k, "is required in a bailian_trace row");
        BailianRow row;
        row.line = line;
        std::optional<long long> id, parent, turn, isl, osl;
        std::optional<double> ts;
        if (auto e = r.integer("chat_id", id, LLONG_MIN)) return e;
        if (auto e = r.integer("parent_chat_id", parent, -1)) return e;
        if (auto e = r.integer("turn", turn, 0)) return e;
        if (auto e = r.integer("input_length", isl, 1)) return e;
        if (auto e = r.integer("output_length", osl, 1)) return e;
        if (auto e = r.number("timestamp", ts, 0)) return e;
        if (const ojson* kind = r.get("type"); kind && !kind->is_string())
          return r.error("type",
                         "must be a string (the request kind), got " + json_type_name(*kind));
        std::vector<std::int64_t> ids;
        if (auto e = r.int_list("hash_ids", ids)) return e;
        if (*isl > INT32_MAX) return r.error("input_length", "is too large");
        if (syn.max_isl && *isl > *syn.max_isl) {
          ++ctx.out.dropped_rows;
          return std::nullopt;
        }
        row.chat_id = *id;
        row.parent = parent.value_or(-1);
        row.turn = turn.value_or(1);
        row.t.timestamp_ms = *ts * 1000.0 / syn.speedup_ratio;
        row.t.max_tokens =
            static_cast<int>(std::min<long long>(synthesized_output_length(*osl, syn), INT32_MAX));
        int length = static_cast<int>(*isl);
        // Rows with hash ids are reshaped together once the file is read (trace_synthesis).
        if (syn.prompt_len_multiplier != 1.0 && ids.empty()) {
          if (auto e = ctx.blocks->check_layout(ids, length)) return r.error("hash_ids", *e);
          // As mooncake: full shared blocks kept as far as the scaled length reaches.
          const int scaled =
              std::max(1, static_cast<int>(std::lround(length * syn.prompt_len_multiplier)));
          const long long b = ctx.blocks->block_size();
          const auto n = static_cast<long long>(ids.size());
          const long long full = n * b <= length ? n : n - 1;
          ids.resize(
              static_cast<std::size_t>(std::max(0LL, std::min<long long>(full, scaled / b))));
          length = scaled;
        }
        if (auto e = ctx.synthesize(line, "input_length", length, std::move(ids), row.t)) return e;
        if (!by_id.emplace(row.chat_id, rows.size()).second)
          return r.error("chat_id", fmt::format("chat_id {} appears twice", row.chat_id));
        rows.push_back(std::move(row));
        return std::nullopt;
      });
  if (err) return err;
  // Sessions are the connected parent chains (union-find over rows). A session's id is its root:
  // the row whose parent is -1 or not in the file; a chain that only loops takes its smallest id.
  std::vector<std::size_t> up(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) up[i] = i;
  auto find = [&](std::size_t i) {
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto it = by_id.find(rows[i].parent);
    if (rows[i].parent != -1 && it != by_id.end()) up[find(i)] = find(it->second);
  }
  std::unordered_map<std::size_t, long long> session_of;  // component -> root chat_id
  std::unordered_set<std::size_t> has_root;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const bool root = rows[i].parent == -1 || !by_id.count(rows[i].parent);
    const std::size_t c = find(i);
    auto [it, fresh] = session_of.try_emplace(c, rows[i].chat_id);
    if (root) {
      it->second = rows[i].chat_id;
      has_root.insert(c);
    } else if (!has_root.count(c) && rows[i].chat_id < it->second) {
      it->second = rows[i].chat_id;
    }
  }
  auto root_of = [&](std::size_t i) { return session_of.at(find(i)); };
  std::unordered_map<long long, std::size_t> conv_of;
  auto& convs = ctx.out.dataset.conversations;
  std::vector<std::vector<std::pair<long long, std::size_t>>> members;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const long long root = root_of(i);
    auto [it, fresh] = conv_of.try_emplace(root, convs.size());
    if (fresh) {
      Conversation c;
      c.session_id = std::to_string(root);
      c.context_mode = ContextMode::kMessageArrayWithResponses;
      convs.push_back(std::move(c));
      members.emplace_back();
    }
    members[it->second].emplace_back(rows[i].turn, i);
  }
  for (std::size_t c = 0; c < convs.size(); ++c) {
    std::stable_sort(members[c].begin(), members[c].end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [turn, i] : members[c]) convs[c].turns.push_back(std::move(rows[i].t));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
