#include "dataset/trace_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "core/statistics.hpp"
#include "dataset/input_file.hpp"

namespace inferperf::dataset {

using json = nlohmann::ordered_json;

namespace {

core::Error field_error(const std::string& file, int line_no, const std::string& field,
                        std::string message) {
  return core::Error{core::ErrorKind::kInput, std::move(message), file, line_no, field};
}

// A JSON integer that fits in int64 (a fractional number, even 3.0, is not one).
std::optional<std::int64_t> as_int64(const json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() <=
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  return std::nullopt;
}

core::Result<std::int64_t> length_field(const json& line, const char* key, const std::string& file,
                                        int line_no) {
  const auto it = line.find(key);
  if (it == line.end()) return std::int64_t{0};
  const auto v = as_int64(*it);
  if (!v || *v < 0) {
    return field_error(file, line_no, key,
                       fmt::format("must be a non-negative integer (tokens), got {}",
                                   it->is_number() ? it->dump() : json_type_name(*it)));
  }
  return *v;
}

// Key of a node's child in the prefix trie: (parent node, hash id).
struct ChildKey {
  std::size_t parent;
  std::int64_t id;
  bool operator==(const ChildKey&) const = default;
};
struct ChildKeyHash {
  std::size_t operator()(const ChildKey& k) const noexcept {
    const std::size_t h = std::hash<std::int64_t>{}(k.id);
    return h ^ (k.parent + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  }
};
// (position in the row, hash id) pairs share the same shape.
using PositionKey = ChildKey;

}  // namespace

core::Result<TraceRow> trace_row_from_json(const json& line, const std::string& file, int line_no) {
  TraceRow row;
  auto isl = length_field(line, "input_length", file, line_no);
  if (!isl) return isl.error();
  row.input_length = *isl;
  auto osl = length_field(line, "output_length", file, line_no);
  if (!osl) return osl.error();
  row.output_length = *osl;
  if (const auto it = line.find("hash_ids"); it != line.end()) {
    if (!it->is_array()) {
      return field_error(file, line_no, "hash_ids",
                         "must be a list of integers, got " + json_type_name(*it));
    }
    row.hash_ids.reserve(it->size());
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& item = (*it)[i];
      const auto id = as_int64(item);
      if (!id) {
        return field_error(file, line_no, "hash_ids",
                           fmt::format("item {} must be an integer, got {}", i,
                                       item.is_number() ? item.dump() : json_type_name(item)));
      }
      row.hash_ids.push_back(*id);
    }
  }
  return row;
}

std::optional<TraceStats> trace_stats(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const core::Stats s = core::compute_stats(std::move(values));
  TraceStats t;
  t.mean = s.avg;
  t.std_dev = s.std;
  t.min = s.min;
  t.p25 = s.percentile(25);
  t.median = s.percentile(50);
  t.p75 = s.percentile(75);
  t.p90 = s.percentile(90);
  t.max = s.max;
  return t;
}

TraceAnalysis analyze_trace(const std::vector<TraceRow>& rows, std::int64_t block_size) {
  TraceAnalysis a;
  a.total_requests = static_cast<std::int64_t>(rows.size());

  // Pass 1: prefix trie (node 0 is the empty prefix), (position, id) counts, first ids and the
  // number of distinct rows referencing each id.
  std::unordered_map<ChildKey, std::size_t, ChildKeyHash> children;
  std::vector<std::int64_t> prefix_count{0};
  std::unordered_map<PositionKey, std::int64_t, ChildKeyHash> position_count;
  std::unordered_map<std::int64_t, std::int64_t> first_id_rows;
  struct IdRows {
    std::int64_t rows = 0;
    std::size_t last_row = std::numeric_limits<std::size_t>::max();
  };
  std::unordered_map<std::int64_t, IdRows> id_rows;
  std::int64_t tokens_with_ids = 0, ids_total = 0;

  for (std::size_t r = 0; r < rows.size(); ++r) {
    const TraceRow& row = rows[r];
    a.isl.push_back(static_cast<double>(row.input_length));
    a.osl.push_back(static_cast<double>(row.output_length));
    if (row.hash_ids.empty()) continue;
    std::size_t node = 0;
    for (std::size_t pos = 0; pos < row.hash_ids.size(); ++pos) {
      const std::int64_t id = row.hash_ids[pos];
      auto [it, added] = children.try_emplace(ChildKey{node, id}, prefix_count.size());
      if (added) prefix_count.push_back(0);
      node = it->second;
      ++prefix_count[node];
      ++position_count[PositionKey{pos, id}];
      IdRows& seen = id_rows[id];
      if (seen.last_row != r) {
        ++seen.rows;
        seen.last_row = r;
      }
    }
    ++first_id_rows[row.hash_ids.front()];
    tokens_with_ids += row.input_length;
    ids_total += static_cast<std::int64_t>(row.hash_ids.size());
  }

  a.unique_prefixes = static_cast<std::int64_t>(prefix_count.size() - 1);
  a.num_prefix_groups = std::count_if(first_id_rows.begin(), first_id_rows.end(),
                                      [](const auto& kv) { return kv.second > 1; });
  std::int64_t reused = 0, all = 0;
  for (std::size_t n = 1; n < prefix_count.size(); ++n) {
    all += prefix_count[n];
    if (prefix_count[n] > 1) reused += prefix_count[n];
  }
  a.prefix_reuse_ratio = all > 0 ? static_cast<double>(reused) / static_cast<double>(all) : 0.0;

  // Pass 2: context and unique prompt lengths, theoretical hit rates, block reuse.
  std::unordered_set<std::int64_t> cached;
  std::int64_t shared_refs = 0;
  for (const TraceRow& row : rows) {
    if (row.hash_ids.empty()) {
      a.context_lengths.push_back(0);
      a.unique_prompt_lengths.push_back(static_cast<double>(row.input_length));
      continue;
    }
    std::int64_t repeated = 0;
    for (std::size_t pos = 0; pos < row.hash_ids.size(); ++pos) {
      if (position_count.at(PositionKey{pos, row.hash_ids[pos]}) > 1) ++repeated;
      if (id_rows.at(row.hash_ids[pos]).rows > 1) ++shared_refs;
    }
    const bool all_repeated = repeated == static_cast<std::int64_t>(row.hash_ids.size());
    const std::int64_t context = all_repeated ? row.input_length : repeated * block_size;
    a.context_lengths.push_back(static_cast<double>(context));
    a.unique_prompt_lengths.push_back(static_cast<double>(row.input_length - context));

    std::size_t first_miss = 0;
    while (first_miss < row.hash_ids.size() && cached.contains(row.hash_ids[first_miss]))
      ++first_miss;
    a.hit_rates.push_back(static_cast<double>(first_miss) /
                          static_cast<double>(row.hash_ids.size()));
    cached.insert(row.hash_ids.begin(), row.hash_ids.end());
  }
  if (!a.hit_rates.empty()) {
    a.cache_hit_rate = std::accumulate(a.hit_rates.begin(), a.hit_rates.end(), 0.0) /
                       static_cast<double>(a.hit_rates.size());
  }
  if (ids_total > 0) {
    a.tokens_per_hash_id = static_cast<double>(tokens_with_ids) / static_cast<double>(ids_total);
    a.block_reuse_ratio = static_cast<double>(shared_refs) / static_cast<double>(ids_total);
  }

  if (!rows.empty()) {
    const auto by_isl = [](const TraceRow& x, const TraceRow& y) {
      return x.input_length < y.input_length;
    };
    const auto by_osl = [](const TraceRow& x, const TraceRow& y) {
      return x.output_length < y.output_length;
    };
    a.min_isl = std::min_element(rows.begin(), rows.end(), by_isl)->input_length;
    a.max_isl = std::max_element(rows.begin(), rows.end(), by_isl)->input_length;
    a.min_osl = std::min_element(rows.begin(), rows.end(), by_osl)->output_length;
    a.max_osl = std::max_element(rows.begin(), rows.end(), by_osl)->output_length;
    // Integer sums divided once, as Python's sum(ints) / len.
    std::int64_t isl_sum = 0, osl_sum = 0;
    for (const TraceRow& row : rows) {
      isl_sum += row.input_length;
      osl_sum += row.output_length;
    }
    a.avg_isl = static_cast<double>(isl_sum) / static_cast<double>(rows.size());
    a.avg_osl = static_cast<double>(osl_sum) / static_cast<double>(rows.size());
  }
  a.isl_stats = trace_stats(a.isl);
  a.osl_stats = trace_stats(a.osl);
  a.context_length_stats = trace_stats(a.context_lengths);
  a.unique_prompt_length_stats = trace_stats(a.unique_prompt_lengths);
  a.hit_rate_stats = trace_stats(a.hit_rates);
  if (a.isl_stats) a.p90_isl = a.isl_stats->p90;
  if (a.osl_stats) a.p90_osl = a.osl_stats->p90;
  return a;
}

nlohmann::ordered_json trace_analysis_json(const TraceAnalysis& a) {
  auto stats = [](const std::optional<TraceStats>& s) -> nlohmann::ordered_json {
    if (!s) return nullptr;
    nlohmann::ordered_json j;
    j["mean"] = s->mean;
    j["std_dev"] = s->std_dev;
    j["min"] = s->min;
    j["p25"] = s->p25;
    j["median"] = s->median;
    j["p75"] = s->p75;
    j["max"] = s->max;
    j["p90"] = s->p90;  // ours: after AIPerf's keys
    return j;
  };
  auto optional = [](const std::optional<double>& v) -> nlohmann::ordered_json {
    if (!v) return nullptr;
    return *v;
  };
  nlohmann::ordered_json j;
  j["total_requests"] = a.total_requests;
  j["unique_prefixes"] = a.unique_prefixes;
  j["num_prefix_groups"] = a.num_prefix_groups;
  j["cache_hit_rate"] = a.cache_hit_rate;
  j["min_isl"] = a.min_isl;
  j["max_isl"] = a.max_isl;
  j["avg_isl"] = a.avg_isl;
  j["min_osl"] = a.min_osl;
  j["max_osl"] = a.max_osl;
  j["avg_osl"] = a.avg_osl;
  j["prefix_reuse_ratio"] = a.prefix_reuse_ratio;
  j["isl_stats"] = stats(a.isl_stats);
  j["osl_stats"] = stats(a.osl_stats);
  j["context_length_stats"] = stats(a.context_length_stats);
  j["unique_prompt_length_stats"] = stats(a.unique_prompt_length_stats);
  j["hit_rate_stats"] = stats(a.hit_rate_stats);
  j["p90_isl"] = optional(a.p90_isl);
  j["p90_osl"] = optional(a.p90_osl);
  j["tokens_per_hash_id"] = optional(a.tokens_per_hash_id);
  j["block_reuse_ratio"] = optional(a.block_reuse_ratio);
  return j;
}

}  // namespace inferperf::dataset
