// weka_trace (trace-formats §4): WEKA kv-cache-tester agentic coding traces. One JSON object per
// file; a folder loads every *.json in it (sorted, not recursive). Each file is one root
// conversation (session id = trace id) built from the top-level requests, and every subagent
// marker becomes a child conversation "<id>::sa:<agent_id>" that the parent spawns and may join.
// Turns are delta-encoded hash-id segments (system / user / assistant messages) sent in the
// deltas_with_responses mode: the file supplies the assistant text, live replies are not threaded.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/memory_estimate.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

// Real captures use 16..1024-token blocks; the bound keeps block arithmetic far from overflow.
constexpr long long kMaxBlockSize = 65536;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTraceKeys[] = {
    "id",          "models",        "block_size", "hash_id_scope",
    "tool_tokens", "system_tokens", "requests",   "totals"};
constexpr std::string_view kRequestKeys[] = {"t",    "type",     "model",       "in",
                                             "out",  "hash_ids", "input_types", "output_types",
                                             "stop", "api_time", "think_time",  "ttft"};
constexpr std::string_view kSubagentKeys[] = {
    "t",           "type",         "agent_id",       "subagent_type",
    "duration_ms", "total_tokens", "tool_use_count", "status",
    "requests",    "models",       "tool_tokens",    "system_tokens"};

// An error whose field is `prefix` + the field the check named ("requests[3].in").
std::optional<core::Error> at(std::optional<core::Error> e, const std::string& prefix) {
  if (e) e->field = prefix + e->field;
  return e;
}

template <std::size_t N>
std::optional<core::Error> known_keys(const Row& r, const std::string_view (&keys)[N],
                                      const std::string& prefix, std::string_view what) {
  for (auto it = r.json().begin(); it != r.json().end(); ++it) {
    if (std::find(std::begin(keys), std::end(keys), it.key()) == std::end(keys)) {
      return r.error(prefix + core::excerpt(it.key()),
                     fmt::format("unknown field in a weka_trace {} (the format allows only its "
                                 "own fields)",
                                 what));
    }
  }
  return std::nullopt;
}

std::optional<core::Error> string_list(const Row& r, std::string_view name,
                                       const std::string& prefix) {
  const ojson* v = r.get(name);
  if (!v) return std::nullopt;
  if (!v->is_array())
    return r.error(prefix + std::string(name),
                   "must be a list of strings, got " + json_type_name(*v));
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) {
      return r.error(fmt::format("{}{}[{}]", prefix, name, i),
                     "must be a string, got " + json_type_name((*v)[i]));
    }
  }
  return std::nullopt;
}

struct Request {
  std::string where;  // "requests[3]" for messages
  double t = 0;
  std::string model;
  int in = 0;
  int out = 0;
  std::vector<std::int64_t> ids;  // file-local hash ids
  double api_time = 0;
};

// One n/s request object. `kept` is false when --synthesis-max-isl drops it.
std::optional<core::Error> parse_request(LoadContext& ctx, const ojson& j, const std::string& where,
                                         Request& out, bool& kept) {
  Row r(j, ctx, 0);
  const std::string p = where + ".";
  if (auto e = known_keys(r, kRequestKeys, p, "request")) return e;
  std::optional<std::string> type, model, stop;
  if (auto e = at(r.string("type", type), p)) return e;
  if (!type || (*type != "n" && *type != "s"))
    return r.error(p + "type", "a request's type must be \"n\" or \"s\"");
  if (*type == "n" && r.has("ttft"))
    return r.error(p + "ttft", "unknown field in a weka_trace \"n\" request (only \"s\" has it)");
  for (const char* k : {"t", "in", "out"})
    if (!r.has(k)) return r.error(p + k, "is required in a weka_trace request");
  std::optional<double> t, api_time, think_time, ttft;
  std::optional<long long> in, outl;
  if (auto e = at(r.number("t", t, 0), p)) return e;
  if (auto e = at(r.integer("in", in, 1), p)) return e;
  if (auto e = at(r.integer("out", outl, 0), p)) return e;
  if (auto e = at(r.string("model", model), p)) return e;
  if (auto e = at(r.string("stop", stop), p)) return e;
  if (auto e = at(r.number("api_time", api_time, 0), p)) return e;
  if (auto e = at(r.number("think_time", think_time, 0), p)) return e;
  if (auto e = at(r.number("ttft", ttft, 0), p)) return e;
  if (auto e = at(r.int_list("hash_ids", out.ids), p)) return e;
  if (auto e = string_list(r, "input_types", p)) return e;
  if (auto e = string_list(r, "output_types", p)) return e;
  if (*in > kMaxRowTokens) {
    return r.error(p + "in", fmt::format("asks for {} prompt tokens, more than any model's context "
                                         "window (at most {} per request)",
                                         *in, kMaxRowTokens));
  }
  out.where = where;
  out.t = *t;
  out.model = model.value_or("");
  out.in = static_cast<int>(*in);
  out.out = static_cast<int>(std::min<long long>(*outl, INT32_MAX));
  out.api_time = api_time.value_or(0.0);
  const auto& max_isl = ctx.options.synthesis.max_isl;
  kept = !(max_isl && *in > *max_isl);
  if (!kept) ++ctx.out.dropped_rows;
  return std::nullopt;
}

struct Subagent {
  std::string where;
  double t = 0;
  std::string agent_id;
  std::optional<long long> duration_ms;
  long long tool_tokens = 0, system_tokens = 0;
  std::vector<Request> requests;  // kept ones, inner times made absolute
};

std::optional<core::Error> parse_subagent(LoadContext& ctx, const ojson& j,
                                          const std::string& where, Subagent& out,
                                          std::vector<std::string>& models_seen) {
  Row r(j, ctx, 0);
  const std::string p = where + ".";
  if (auto e = known_keys(r, kSubagentKeys, p, "subagent marker")) return e;
  for (const char* k : {"t", "agent_id"})
    if (!r.has(k)) return r.error(p + k, "is required in a weka_trace subagent marker");
  std::optional<double> t;
  std::optional<std::string> agent, subagent_type, status;
  std::optional<long long> duration, total, tools_used, tool_tokens, system_tokens;
  if (auto e = at(r.number("t", t, 0), p)) return e;
  if (auto e = at(r.string("agent_id", agent), p)) return e;
  if (auto e = at(r.string("subagent_type", subagent_type), p)) return e;
  if (auto e = at(r.string("status", status), p)) return e;
  if (auto e = at(r.integer("duration_ms", duration, 0), p)) return e;
  if (auto e = at(r.integer("total_tokens", total, 0), p)) return e;
  if (auto e = at(r.integer("tool_use_count", tools_used, 0), p)) return e;
  if (auto e = at(r.integer("tool_tokens", tool_tokens, 0), p)) return e;
  if (auto e = at(r.integer("system_tokens", system_tokens, 0), p)) return e;
  if (auto e = string_list(r, "models", p)) return e;
  out.where = where;
  out.t = *t;
  out.agent_id = *agent;
  out.duration_ms = duration;
  out.tool_tokens = tool_tokens.value_or(0);
  out.system_tokens = system_tokens.value_or(0);
  const ojson* reqs = r.get("requests");
  if (!reqs) return std::nullopt;
  if (!reqs->is_array())
    return r.error(p + "requests", "must be a list, got " + json_type_name(*reqs));
  for (std::size_t i = 0; i < reqs->size(); ++i) {
    const std::string w = fmt::format("{}requests[{}]", p, i);
    const ojson& item = (*reqs)[i];
    if (!item.is_object()) return ctx.error(0, w, "a request must be a JSON object");
    Request req;
    bool kept = true;
    if (auto e = parse_request(ctx, item, w, req, kept)) return e;
    if (!req.model.empty() &&
        std::find(models_seen.begin(), models_seen.end(), req.model) == models_seen.end())
      models_seen.push_back(req.model);
    if (req.t < out.t) req.t += out.t;  // legacy: relative to the marker
    if (kept) out.requests.push_back(std::move(req));
  }
  return std::nullopt;
}

// Builds the turns of one conversation from its requests (docs/datasets.md, weka_trace).
class SegmentBuilder {
 public:
  SegmentBuilder(LoadContext& ctx, std::unordered_map<std::int64_t, std::int64_t>& ids,
                 std::int64_t& next_global)
      : ctx_(ctx), ids_(ids), next_global_(next_global), b_(ctx.blocks->block_size()) {}

  std::optional<core::Error> add(const Request& req, long long prefix_tokens, Turn& turn) {
    const auto m = static_cast<long long>(req.ids.size());
    long long used = std::min<long long>(m, req.in / b_);
    std::vector<PromptSegment> emitted;
    if (first_) {
      first_ = false;
      const long long sys = (prefix_tokens + b_ - 1) / b_;
      if (sys > m) {
        return ctx_.error(0, req.where + ".hash_ids",
                          fmt::format("the tool and system prefix ({} tokens) needs {} blocks of "
                                      "{} tokens, but the request has {} hash ids",
                                      prefix_tokens, sys, b_, m));
      }
      used = std::max(used, sys);
      if (sys > 0) push({"system", 0, sys, 0});
      push({"user", sys, used, 0});
      finish_user(req, used);
      for (auto& s : buf_) emitted.push_back(render(s, req));
    } else {
      long long lcp = 0;
      while (lcp < std::min<long long>(static_cast<long long>(prev_.size()), used) &&
             prev_[static_cast<std::size_t>(lcp)] == req.ids[static_cast<std::size_t>(lcp)])
        ++lcp;
      // Truncate the running context at the LCP; cutting a segment already sent means the whole
      // context is sent again (a segment ending exactly at the LCP keeps its filler tail).
      bool reset = false;
      while (!buf_.empty() && buf_.back().b1 > lcp) {
        reset = true;
        if (Seg& cut = buf_.back(); cut.b0 < lcp) {
          cut.b1 = lcp;
          cut.global_ids.resize(static_cast<std::size_t>(lcp - cut.b0));
          cut.tail = 0;
          cut.tail_text.clear();
          break;
        }
        buf_.pop_back();
      }
      const std::size_t kept = buf_.size();
      const long long fresh = used - lcp;
      const long long asst = std::min<long long>((prev_out_ + b_ - 1) / b_, fresh);
      if (asst > 0) push({"assistant", lcp, lcp + asst, 0});
      push({"user", lcp + asst, used, 0});
      finish_user(req, used);
      turn.reset_context = reset;
      for (std::size_t i = reset ? 0 : kept; i < buf_.size(); ++i)
        emitted.push_back(render(buf_[i], req));
    }
    prev_.assign(req.ids.begin(), req.ids.begin() + used);
    prev_out_ = req.out;
    turn.segments = std::move(emitted);
    turn.synthetic_tokens = req.in;
    return std::nullopt;
  }

 private:
  struct Seg {
    std::string role;
    long long b0 = 0, b1 = 0;  // block positions [b0, b1) in the context
    int tail = 0;              // filler tokens after the blocks
    std::string tail_text;
    std::vector<std::int64_t> global_ids;
  };

  void push(Seg s) { buf_.push_back(std::move(s)); }

  // The last (user) segment gets the filler that brings the context to `in` tokens (the `in % B`
  // tail and blocks the hash ids do not cover); a request always ends with new user text.
  void finish_user(const Request& req, long long used) {
    long long tokens = 0;
    for (const auto& s : buf_) tokens += (s.b1 - s.b0) * b_ + s.tail;
    Seg& user = buf_.back();
    long long tail = std::max<long long>(0, req.in - tokens);
    if (tail == 0 && user.b1 == user.b0) tail = 1;
    user.tail = static_cast<int>(std::min<long long>(tail, INT32_MAX));
    (void)used;
  }

  PromptSegment render(Seg& s, const Request& req) {
    if (s.global_ids.empty() && s.b1 > s.b0) {
      for (long long k = s.b0; k < s.b1; ++k) {
        const std::int64_t local = req.ids[static_cast<std::size_t>(k)];
        auto [it, fresh] = ids_.try_emplace(local, next_global_);
        if (fresh) ++next_global_;
        s.global_ids.push_back(it->second);
      }
    }
    if (!s.global_ids.empty())
      (void)ctx_.blocks->require(s.global_ids, static_cast<int>(s.global_ids.size() * b_));
    if (s.tail > 0 && s.tail_text.empty())
      s.tail_text = ctx_.blocks->fresh_text(s.tail, ctx_.next_row_key++, s.b1 > s.b0);
    PromptSegment out;
    out.role = s.role;
    out.prompt.input_length = static_cast<int>((s.b1 - s.b0) * b_) + s.tail;
    out.prompt.hash_ids = s.global_ids;
    out.prompt.tail = s.tail_text;
    return out;
  }

  LoadContext& ctx_;
  std::unordered_map<std::int64_t, std::int64_t>& ids_;
  std::int64_t& next_global_;
  long long b_;
  bool first_ = true;
  std::vector<Seg> buf_;
  std::vector<std::int64_t> prev_;  // the previous turn's hash ids in use
  long long prev_out_ = 0;
};

struct Loaded {
  std::string file;
  std::string id;
  std::optional<long long> block_size;
  long long tool_tokens = 0, system_tokens = 0;
  std::vector<Request> requests;  // top-level, kept
  std::vector<Subagent> subagents;
  std::vector<std::string> models_seen;  // first-appearance order
};

std::optional<core::Error> parse_trace(LoadContext& ctx, const ojson& j, Loaded& out) {
  if (!j.is_object()) return ctx.error(0, "", "a weka_trace file holds one JSON object");
  Row r(j, ctx, 0);
  if (auto e = known_keys(r, kTraceKeys, "", "trace")) return e;
  for (const char* k : {"id", "requests"})
    if (!r.has(k)) return r.error(k, "is required in a weka_trace file");
  std::optional<std::string> id, scope;
  std::optional<long long> block, tool, system;
  if (auto e = r.string("id", id)) return e;
  if (auto e = r.string("hash_id_scope", scope)) return e;
  if (scope && *scope != "local")
    return r.error("hash_id_scope", "must be \"local\", got \"" + core::excerpt(*scope) + "\"");
  if (auto e = r.integer("block_size", block, 1)) return e;
  if (block && *block > kMaxBlockSize)
    return r.error("block_size", fmt::format("must be at most {}", kMaxBlockSize));
  if (auto e = r.integer("tool_tokens", tool, 0)) return e;
  if (auto e = r.integer("system_tokens", system, 0)) return e;
  if (auto e = string_list(r, "models", "")) return e;
  if (const ojson* totals = r.get("totals"); totals && !totals->is_object())
    return r.error("totals", "must be an object, got " + json_type_name(*totals));
  const ojson* reqs = r.get("requests");
  if (!reqs->is_array()) return r.error("requests", "must be a list, got " + json_type_name(*reqs));
  out.id = *id;
  out.block_size = block;
  out.tool_tokens = tool.value_or(0);
  out.system_tokens = system.value_or(0);
  std::set<std::string> agents;
  for (std::size_t i = 0; i < reqs->size(); ++i) {
    const std::string where = fmt::format("requests[{}]", i);
    const ojson& item = (*reqs)[i];
    if (!item.is_object()) return ctx.error(0, where, "a request must be a JSON object");
    const auto type = item.find("type");
    if (type != item.end() && type->is_string() && *type == "subagent") {
      Subagent sa;
      if (auto e = parse_subagent(ctx, item, where, sa, out.models_seen)) return e;
      if (!agents.insert(sa.agent_id).second) {
        return ctx.error(
            0, where + ".agent_id",
            fmt::format("agent_id '{}' appears twice in the trace", core::excerpt(sa.agent_id)));
      }
      out.subagents.push_back(std::move(sa));
      continue;
    }
    Request req;
    bool kept = true;
    if (auto e = parse_request(ctx, item, where, req, kept)) return e;
    if (!req.model.empty() && std::find(out.models_seen.begin(), out.models_seen.end(),
                                        req.model) == out.models_seen.end())
      out.models_seen.push_back(req.model);
    if (kept) out.requests.push_back(std::move(req));
  }
  return std::nullopt;
}

// Recorded model -> the --model it is sent as: the main model (the first top-level request's)
// to the first, the others in first-appearance order to the next ones, wrapping around.
std::string model_for(const Loaded& tr, const std::string& main, const std::string& recorded,
                      const std::vector<std::string>& models) {
  if (models.size() < 2) return models.empty() ? "" : models.front();
  if (recorded == main || recorded.empty()) return models.front();
  std::size_t k = 0;
  for (const auto& m : tr.models_seen) {
    if (m == main) continue;
    ++k;
    if (m == recorded) break;
  }
  return models[k % models.size()];
}

// The root conversation of one trace and a child per retained subagent, appended to the dataset.
void build_conversations(LoadContext& ctx, Loaded& tr, std::int64_t& next_global,
                         std::optional<core::Error>& err) {
  auto& convs = ctx.out.dataset.conversations;
  const auto& syn = ctx.options.synthesis;
  const auto& models = ctx.options.models;
  const double speed = syn.speedup_ratio;
  std::unordered_map<std::int64_t, std::int64_t> ids;  // this trace's hash ids -> global ids
  const std::string main = tr.requests.empty() ? "" : tr.requests.front().model;
  auto make_turns = [&](const std::vector<Request>& reqs, long long prefix, bool parent,
                        std::vector<Turn>& turns) -> std::optional<core::Error> {
    SegmentBuilder seg(ctx, ids, next_global);
    for (std::size_t k = 0; k < reqs.size(); ++k) {
      const Request& q = reqs[k];
      Turn turn;
      if (auto e = seg.add(q, prefix, turn)) return e;
      SynthesisOptions shape = syn;  // --synthesis-max-osl caps the root's turns only
      if (!parent) shape.max_osl.reset();
      const long long osl = synthesized_output_length(q.out, shape);
      turn.max_tokens = static_cast<int>(std::max<long long>(1, osl));
      turn.timestamp_ms = q.t * 1000.0 / speed;
      if (k > 0)
        turn.delay_ms = ctx.delay_cap.apply(std::max(0.0, (q.t - reqs[k - 1].t) * 1000.0 / speed));
      turn.model = model_for(tr, main, q.model, models);
      turns.push_back(std::move(turn));
    }
    return std::nullopt;
  };
  if (tr.requests.empty()) {
    if (!tr.subagents.empty()) {
      ctx.out.warnings.push_back(fmt::format(
          "{}: trace '{}' has no top-level request to spawn its subagents from; skipped", tr.file,
          core::excerpt(tr.id)));
    }
    return;
  }
  const std::size_t root = convs.size();
  {
    Conversation c;
    c.session_id = tr.id;
    c.context_mode = ContextMode::kDeltasWithResponses;
    if ((err = make_turns(tr.requests, tr.tool_tokens + tr.system_tokens, true, c.turns))) return;
    convs.push_back(std::move(c));
  }
  for (const Subagent& sa : tr.subagents) {
    if (sa.requests.empty()) continue;  // every inner request dropped (or none recorded)
    // Spawned by the last parent turn before the marker.
    std::optional<int> spawn;
    for (std::size_t k = 0; k < tr.requests.size(); ++k)
      if (tr.requests[k].t < sa.t) spawn = static_cast<int>(k);
    if (!spawn) {
      ctx.out.warnings.push_back(fmt::format(
          "{}: subagent '{}' of trace '{}' starts before the first parent request; dropped",
          tr.file, core::excerpt(sa.agent_id), core::excerpt(tr.id)));
      continue;
    }
    double end = sa.t;
    if (sa.duration_ms) {
      end = sa.t + static_cast<double>(*sa.duration_ms) / 1000.0;
    } else {
      for (const auto& q : sa.requests) end = std::max(end, q.t + q.api_time);
    }
    // Joined by the first later parent turn that starts after the subagent ended (1 µs slack).
    std::optional<int> join;
    for (std::size_t k = static_cast<std::size_t>(*spawn) + 1; k < tr.requests.size(); ++k) {
      if (tr.requests[k].t >= end - 1e-6) {
        join = static_cast<int>(k);
        break;
      }
    }
    Conversation c;
    c.session_id = tr.id + "::sa:" + sa.agent_id;
    c.context_mode = ContextMode::kDeltasWithResponses;
    c.child = true;
    if ((err = make_turns(sa.requests, sa.tool_tokens + sa.system_tokens, false, c.turns))) return;
    ChildLink link;
    link.after_turn = *spawn;
    link.child = convs.size();
    link.offset_ms =
        std::max(0.0, (sa.requests.front().t - tr.requests[static_cast<std::size_t>(*spawn)].t) *
                          1000.0 / speed);
    link.join_turn = join;
    convs.push_back(std::move(c));
    convs[root].spawns.push_back(link);
  }
}

}  // namespace

namespace {

// Reads only the top-level keys (no tree is built, and it stops at the first answer), so probing a
// 650 MB JSON array or a 1 GB inputs.json costs nothing.
class WekaProbe final : public nlohmann::json_sax<ojson> {
 public:
  bool matched() const { return id_ && requests_ && scope_; }
  bool null() override { return depth_ > 0; }
  bool boolean(bool) override { return depth_ > 0; }
  bool number_integer(number_integer_t) override { return depth_ > 0; }
  bool number_unsigned(number_unsigned_t) override { return depth_ > 0; }
  bool number_float(number_float_t, const string_t&) override { return depth_ > 0; }
  bool string(string_t&) override { return depth_ > 0; }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override { return depth_++ > 0; }  // a top-level array: no
  bool end_array() override {
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ != 1) return true;
    static const std::set<std::string> kAllowed = {
        "id",          "models",        "block_size", "hash_id_scope",
        "tool_tokens", "system_tokens", "requests",   "totals"};
    if (!kAllowed.count(k)) return false;  // weka objects have no other keys
    id_ = id_ || k == "id";
    requests_ = requests_ || k == "requests";
    scope_ = scope_ || k == "hash_id_scope" || k == "block_size";
    return !matched();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  int depth_ = 0;
  bool id_ = false, requests_ = false, scope_ = false;
};

}  // namespace

bool looks_like_weka(std::string_view content) {
  WekaProbe probe;
  ojson::sax_parse(content, &probe, nlohmann::detail::input_format_t::json, false);
  return probe.matched();
}

std::optional<core::Error> load_weka(LoadContext& ctx) {
  const auto& o = ctx.options;
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(o.path, ec)) {
    for (const auto& entry : fs::directory_iterator(o.path, ec))
      if (entry.is_regular_file() && entry.path().extension() == ".json")
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) return ctx.error(0, "--input-file", "the folder holds no *.json file");
  } else {
    files.push_back(o.path);
  }
  std::vector<Loaded> traces;
  std::unordered_map<std::string, std::string> id_file;
  for (const auto& f : files) {
    ctx.file = f.string();
    auto content = read_input_file(f, "weka_trace");
    if (!content) return content.error();
    ojson j;
    try {
      j = ojson::parse(*content);
    } catch (const ojson::parse_error& e) {
      return ctx.error(0, "", "is not valid JSON: " + json_exception_reason(e));
    } catch (const ojson::exception& e) {
      return ctx.error(0, "", "is not valid JSON: " + json_exception_reason(e));
    }
    Loaded tr;
    tr.file = ctx.file;
    if (auto e = parse_trace(ctx, j, tr)) return e;
    ++ctx.out.lines;
    if (auto [it, fresh] = id_file.emplace(tr.id, ctx.file); !fresh) {
      return ctx.error(
          0, "id",
          fmt::format("trace id '{}' is also the id of {}", core::excerpt(tr.id), it->second));
    }
    traces.push_back(std::move(tr));
  }
  // Block size: the flag, else the (first) file's, else 64.
  std::optional<long long> file_block;
  for (const auto& tr : traces)
    if (tr.block_size) {
      file_block = tr.block_size;
      break;
    }
  const int b = o.block_size ? *o.block_size : static_cast<int>(file_block.value_or(64));
  for (const auto& tr : traces) {
    if (tr.block_size && *tr.block_size != b) {
      ctx.out.warnings.push_back(fmt::format(
          "{}: the trace's block_size is {} but hash ids expand to {}-token blocks{}", tr.file,
          *tr.block_size, b,
          o.block_size ? " (--prompt-input-tokens-block-size)" : " (the first file's)"));
    }
  }
  ctx.out.block_size = b;
  ctx.blocks.emplace(b, o.tokenizer, o.seed);
  std::int64_t next_global = 0;
  for (auto& tr : traces) {
    ctx.file = tr.file;
    std::optional<core::Error> err;
    build_conversations(ctx, tr, next_global, err);
    if (err) return err;
  }
  ctx.file = o.path.string();
  ctx.out.dataset.models_assigned = o.models.size() >= 2;
  return std::nullopt;
}

}  // namespace inferperf::dataset
