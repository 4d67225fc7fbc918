// speed_bench_*: SPEED-Bench (nvidia/SPEED-Bench, speculative-decoding prompts) JSONL splits. A row
// is {question_id (32 characters), category, messages}; each message becomes one turn of the
// row's conversation. A category name keeps only that category's rows.
#include <fmt/format.h>

#include <unordered_map>

#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"

namespace inferperf::dataset {

namespace {

// The text the public SPEED-Bench release puts where the prompts were withheld.
constexpr std::string_view kSpeedBenchPlaceholder =
    "FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING SPECDEC_BENCH";

bool speed_bench_text(const ojson& v) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  return s.find_first_not_of(" \t\r\n") != std::string::npos;
}

std::vector<SpeedBenchName> make_speed_bench_names() {
  std::vector<SpeedBenchName> out;
  out.push_back({"speed_bench_qualitative", "qualitative.jsonl", ""});
  for (const char* c : {"coding", "humanities", "math", "multilingual", "qa", "rag", "reasoning",
                        "roleplay", "stem", "summarization", "writing"})
    out.push_back({std::string("speed_bench_") + c, "qualitative.jsonl", c});
  for (const char* isl : {"1k", "2k", "8k", "16k", "32k"}) {
    const std::string split = std::string("throughput_") + isl;
    out.push_back({"speed_bench_" + split, split + ".jsonl", ""});
  }
  for (const char* isl : {"1k", "2k", "8k", "16k", "32k"}) {
    const std::string split = std::string("throughput_") + isl;
    for (const char* entropy : {"low_entropy", "mixed", "high_entropy"})
      out.push_back({"speed_bench_" + split + "_" + entropy, split + ".jsonl", entropy});
  }
  return out;
}

}  // namespace

const std::vector<SpeedBenchName>& speed_bench_names() {
  static const std::vector<SpeedBenchName> names = make_speed_bench_names();
  return names;
}

const SpeedBenchName* find_speed_bench_name(std::string_view name) {
  for (const auto& n : speed_bench_names())
    if (n.name == name) return &n;
  return nullptr;
}

bool looks_like_speed_bench(const ojson& j) {
  const auto q = j.find("question_id"), c = j.find("category"), m = j.find("messages");
  return q != j.end() && q->is_string() && q->get_ref<const std::string&>().size() == 32 &&
         c != j.end() && speed_bench_text(*c) && m != j.end() && m->is_array() && !m->empty();
}

std::optional<core::Error> load_speed_bench(LoadContext& ctx, std::string_view content) {
  const SpeedBenchName* name = find_speed_bench_name(ctx.out.type_name);
  if (!name) return ctx.error(0, "--custom-dataset-type", "not a speed_bench_* name");
  std::unordered_map<std::string, int> seen;  // question_id -> rows so far
  auto& convs = ctx.out.dataset.conversations;
  std::size_t other_categories = 0;
  auto err =
      for_each_json_line(content, ctx.file, [&](int line, ojson& j) -> std::optional<core::Error> {
        Row r(j, ctx, line);
        ++ctx.out.lines;
        std::optional<std::string> qid, category;
        if (auto e = r.string("question_id", qid)) return e;
        if (!qid || qid->size() != 32)
          return r.error("question_id", "is required: a 32-character id");
        if (auto e = r.string("category", category)) return e;
        if (!category || !speed_bench_text(*r.get("category")))
          return r.error("category", "is required (a non-empty string)");
        const ojson* messages = r.get("messages");
        if (!messages || !messages->is_array() || messages->empty())
          return r.error("messages", "must be a non-empty list of {role, content} messages");
        Conversation conv;
        conv.session_id = *qid;
        for (std::size_t i = 0; i < messages->size(); ++i) {
          const ojson& m = (*messages)[i];
          const std::string at = fmt::format("messages[{}]", i);
          if (!m.is_object() || !m.contains("role") || !speed_bench_text(m["role"]) ||
              !m.contains("content") || !speed_bench_text(m["content"]))
            return r.error(at, "needs a non-empty string 'role' and 'content'");
          if (m["content"].get_ref<const std::string&>() == kSpeedBenchPlaceholder) {
            return r.error(at + ".content",
                           "is the public release's placeholder: fetch the full SPEED-Bench data "
                           "(specdec_bench) first");
          }
          Turn t;
          t.role = m["role"].get<std::string>();
          t.text = m["content"].get<std::string>();
          conv.turns.push_back(std::move(t));
        }
        if (!name->category.empty() && *category != name->category) {
          ++other_categories;
          return std::nullopt;
        }
        // A repeated id stays a conversation of its own: it gets a "#N" suffix.
        if (const int n = ++seen[*qid]; n > 1) conv.session_id += "#" + std::to_string(n);
        convs.push_back(std::move(conv));
        return std::nullopt;
      });
  if (err) return err;
  if (convs.empty() && other_categories > 0) {
    return ctx.error(0, "category",
                     fmt::format("no row has category '{}' ({} row(s) of other categories): "
                                 "check that {} is the right file for {}",
                                 name->category, other_categories, ctx.file, name->name));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
