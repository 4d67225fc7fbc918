#include <fmt/format.h>

#include <cmath>

#include "core/byte_size.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/memory_estimate.hpp"

namespace inferperf::dataset {

const ojson* Row::get(std::string_view name) const {
  const auto it = j_.find(name);
  if (it == j_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool Row::has(std::string_view name) const {
  return get(name) != nullptr;
}

std::optional<core::Error> Row::integer(std::string_view name, std::optional<long long>& out,
                                        long long min) const {
  const ojson* v = get(name);
  if (!v) return std::nullopt;
  // 12.0 is accepted as 12; 12.5 is not an integer.
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::floor(d) != d || !std::isfinite(d) || std::fabs(d) >= 9.2e18)
      return error(name, fmt::format("must be an integer, got {}", v->dump()));
    out = static_cast<long long>(d);
  } else if (v->is_number_integer()) {
    out = v->get<long long>();
  } else {
    return error(name, "must be an integer, got " + json_type_name(*v));
  }
  if (*out < min) return error(name, fmt::format("must be at least {}, got {}", min, *out));
  return std::nullopt;
}

std::optional<core::Error> Row::number(std::string_view name, std::optional<double>& out,
                                       double min) const {
  const ojson* v = get(name);
  if (!v) return std::nullopt;
  if (!v->is_number()) return error(name, "must be a number, got " + json_type_name(*v));
  out = v->get<double>();
  if (!std::isfinite(*out) || *out < min)
    return error(name, fmt::format("must be a number of at least {}, got {}", min, v->dump()));
  return std::nullopt;
}

std::optional<core::Error> Row::string(std::string_view name,
                                       std::optional<std::string>& out) const {
  const ojson* v = get(name);
  if (!v) return std::nullopt;
  if (!v->is_string()) return error(name, "must be a string, got " + json_type_name(*v));
  out = v->get<std::string>();
  return std::nullopt;
}

std::optional<core::Error> Row::int_list(std::string_view name,
                                         std::vector<std::int64_t>& out) const {
  const ojson* v = get(name);
  if (!v) return std::nullopt;
  if (!v->is_array()) return error(name, "must be a list of integers, got " + json_type_name(*v));
  out.clear();
  out.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) {
    const ojson& item = (*v)[i];
    if (!item.is_number_integer()) {
      return error(fmt::format("{}[{}]", name, i),
                   "must be an integer, got " + json_type_name(item));
    }
    out.push_back(item.get<std::int64_t>());
  }
  return std::nullopt;
}

std::optional<core::Error> Row::object(std::string_view name, JsonPtr& out, bool non_empty) const {
  const ojson* v = get(name);
  if (!v) return std::nullopt;
  if (!v->is_object()) return error(name, "must be an object, got " + json_type_name(*v));
  if (non_empty && v->empty()) return error(name, "must not be empty");
  out = std::make_shared<const ojson>(*v);
  return std::nullopt;
}

std::optional<core::Error> Row::list(std::string_view name, JsonPtr& out, bool non_empty) const {
  const ojson* v = get(name);
  if (!v) return std::nullopt;
  if (!v->is_array()) return error(name, "must be a list, got " + json_type_name(*v));
  if (non_empty && v->empty()) return error(name, "must not be empty");
  out = std::make_shared<const ojson>(*v);
  return std::nullopt;
}

std::optional<core::Error> LoadContext::synthesize(int line, std::string_view field,
                                                   int input_length, std::vector<std::int64_t> ids,
                                                   Turn& turn) {
  const std::uint64_t key = next_row_key++;
  if (input_length <= 0) return error(line, std::string(field), "input_length must be at least 1");
  if (input_length > kMaxRowTokens) {
    return error(line, std::string(field),
                 fmt::format("asks for {} prompt tokens, more than any model's context window "
                             "(at most {} per row): the row is corrupt or the unit is wrong",
                             input_length, kMaxRowTokens));
  }
  if (!blocks) return error(line, std::string(field), "no prompt generator for this format");
  const long long shared_before = blocks->required_tokens();
  if (auto e = blocks->require(ids, input_length)) return error(line, "hash_ids", *e);
  // What this row adds: its new hash-id blocks (shared ones exist once) and its unshared tail.
  const long long added = blocks->required_tokens() - shared_before + input_length -
                          blocks->covered_tokens(ids, input_length);
  planned_bytes += static_cast<double>(added) * options.bytes_per_token + sizeof(Turn);
  if (options.memory_budget > 0 && planned_bytes > static_cast<double>(options.memory_budget)) {
    return error(
        line, std::string(field),
        fmt::format("the rows up to this one ask for about {} of prompt text, more than the "
                    "dataset memory budget of {}: use a smaller trace (or "
                    "--synthesis-max-isl / --synthesis-prompt-len-multiplier), or raise "
                    "--max-dataset-memory",
                    core::format_byte_size(static_cast<std::uint64_t>(planned_bytes)),
                    core::format_byte_size(options.memory_budget)));
  }
  turn.synthetic_tokens = input_length;
  // The text the blocks do not cover (all of it without hash ids) is generated when the whole
  // file is loaded, on every core (PromptBlockBuilder::build).
  SynthesizedPrompt p;
  p.input_length = input_length;
  p.fresh_tokens = input_length - blocks->covered_tokens(ids, input_length);
  p.fresh_key = key;
  p.hash_ids = std::move(ids);
  turn.synthesized = std::move(p);
  return std::nullopt;
}

}  // namespace inferperf::dataset
