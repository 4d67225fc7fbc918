// dag_jsonl (AIPerf #891): one conversation per line whose turns may start child conversations.
// A turn's `spawns` start fresh-context children when it returns; the parent's next turn (or the
// turn `join_at` names) waits until they have all ended. The children are the same ChildLink
// sessions weka_trace subagents use (timing::Scheduler runs them).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"

namespace inferperf::dataset {

bool looks_like_dag_jsonl(const ojson& j) {
  const auto sid = j.find("session_id");
  const auto turns = j.find("turns");
  if (sid == j.end() || !sid->is_string() || turns == j.end() || !turns->is_array()) return false;
  for (const auto& t : *turns) {
    if (!t.is_object()) return false;
    if ((t.contains("messages") && t["messages"].is_array()) || t.contains("forks") ||
        t.contains("spawns"))
      return true;
  }
  return false;
}

namespace {

struct DagGroup {
  int turn = 0;
  std::vector<std::string> children;
  std::optional<long long> join_at;
  int line = 0;
};

struct DagConv {
  Conversation conv;
  int line = 0;
  std::vector<DagGroup> groups;
  double first_delay_ms = 0;  // turn 0's delay: a child starts this long after its spawn
};

// AIPerf features refused by name: they need scheduling inferperf's child sessions do not have.
constexpr std::string_view kDagUnsupported[] = {"orchestrator",      "rounds",
                                                "think_time_ms",     "think_time_sigma",
                                                "think_time_min_ms", "think_time_max_ms"};

std::optional<core::Error> dag_spawns(const Row& r, const ojson& list, const std::string& where,
                                      int turn, std::vector<DagGroup>& groups) {
  if (!list.is_array()) return r.error(where, "must be a list");
  DagGroup plain{turn, {}, std::nullopt, r.line()};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const ojson& e = list[i];
    const std::string at = fmt::format("{}[{}]", where, i);
    if (e.is_string() && !e.get<std::string>().empty()) {
      plain.children.push_back(e.get<std::string>());
      continue;
    }
    if (!e.is_object())
      return r.error(at, "must be a session id or {\"children\": [...], \"join_at\": K}");
    DagGroup g{turn, {}, std::nullopt, r.line()};
    for (auto it = e.begin(); it != e.end(); ++it) {
      if (it.key() == "children") {
        if (!it->is_array() || it->empty())
          return r.error(at + ".children", "must be a non-empty list of session ids");
        for (const auto& c : *it) {
          if (!c.is_string() || c.get<std::string>().empty())
            return r.error(at + ".children", "must hold non-empty session id strings");
          g.children.push_back(c.get<std::string>());
        }
      } else if (it.key() == "join_at") {
        if (it->is_null()) continue;
        if (!it->is_number_integer()) return r.error(at + ".join_at", "must be a turn index");
        g.join_at = it->get<long long>();
      } else {
        return r.error(at + "." + it.key(), "is not a spawn field (children, join_at)");
      }
    }
    if (g.children.empty()) return r.error(at + ".children", "is required");
    groups.push_back(std::move(g));
  }
  if (!plain.children.empty()) groups.push_back(std::move(plain));
  return std::nullopt;
}

std::optional<core::Error> dag_turn(LoadContext& ctx, const Row& r, const ojson& t, int k,
                                    DagConv& dc) {
  const std::string where = fmt::format("turns[{}]", k);
  if (!t.is_object()) return r.error(where, "must be an object");
  Turn turn;
  for (auto it = t.begin(); it != t.end(); ++it) {
    const std::string& key = it.key();
    const std::string f = where + "." + key;
    const ojson& v = *it;
    if (key == "messages") {
      if (!v.is_array() || v.empty()) return r.error(f, "must be a non-empty list of messages");
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_object() || !v[i].contains("role") || !v[i]["role"].is_string())
          return r.error(fmt::format("{}[{}]", f, i), "each message needs a string 'role'");
        if (k > 0 && v[i]["role"] == "system")
          return r.error(fmt::format("{}[{}]", f, i),
                         "a 'system' message belongs in the conversation's first turn only");
      }
      turn.messages = std::make_shared<const ojson>(v);
    } else if (key == "model") {
      if (!v.is_string() || v.get<std::string>().empty()) return r.error(f, "must be a string");
      turn.model = v.get<std::string>();
    } else if (key == "max_tokens") {
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > INT32_MAX)
        return r.error(f, "must be an integer >= 1");
      turn.max_tokens = v.get<int>();
    } else if (key == "tools") {
      if (!v.is_array()) return r.error(f, "must be a list of tool definitions");
      if (!v.empty()) turn.tools = std::make_shared<const ojson>(v);
    } else if (key == "extra") {
      if (!v.is_object()) return r.error(f, "must be an object (merged into the request body)");
      turn.extra = std::make_shared<const ojson>(v);
    } else if (key == "delay") {
      if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
        return r.error(f, "must be a number of ms >= 0");
      const double d = ctx.delay_cap.apply(v.get<double>());
      if (k == 0)
        dc.first_delay_ms = d;
      else
        turn.delay_ms = d;
    } else if (key == "spawns") {
      if (auto e = dag_spawns(r, v, f, k, dc.groups)) return e;
    } else if (key == "forks") {
      if (!v.is_array()) return r.error(f, "must be a list");
      if (!v.empty()) {
        return r.error(f,
                       "forks (children that inherit the parent's live history) are not "
                       "supported; use spawns (fresh-context children joined by the parent)");
      }
    } else {
      return r.error(f,
                     "is not a dag_jsonl turn field (messages, model, max_tokens, tools, extra, "
                     "forks, spawns, delay); other request fields go in 'extra'");
    }
  }
  if (!turn.messages) return r.error(where + ".messages", "is required");
  dc.conv.turns.push_back(std::move(turn));
  return std::nullopt;
}

std::optional<core::Error> dag_line(LoadContext& ctx, int line, const ojson& j,
                                    std::vector<DagConv>& convs,
                                    std::unordered_map<std::string, std::size_t>& by_id) {
  Row r(j, ctx, line);
  DagConv dc;
  dc.line = line;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (key == "session_id" || key == "turns") continue;
    if (key == "context_mode") {
      const std::string mode = it->is_string() ? it->get<std::string>() : "";
      if (mode == "deltas_without_responses")
        dc.conv.context_mode = ContextMode::kDeltasWithoutResponses;
      else if (mode == "deltas_with_responses")
        dc.conv.context_mode = ContextMode::kDeltasWithResponses;
      else if (mode == "message_array_with_responses")
        dc.conv.context_mode = ContextMode::kMessageArrayWithResponses;
      else if (!it->is_null())
        return r.error(key,
                       "must be deltas_without_responses, deltas_with_responses or "
                       "message_array_with_responses");
    } else if (key == "pre_session_spawns") {
      if (!it->is_array()) return r.error(key, "must be a list of session ids");
      if (!it->empty())
        return r.error(key,
                       "pre-session spawns (children started before turn 0) are not "
                       "supported; spawn them from turn 0 instead");
    } else if (std::find(std::begin(kDagUnsupported), std::end(kDagUnsupported), key) !=
               std::end(kDagUnsupported)) {
      if (!(it->is_boolean() && !it->get<bool>()) && !it->is_null())
        return r.error(key, "orchestrator conversations are not supported");
    } else if (key == "spawns") {
      if (!it->is_array() || !it->empty())
        return r.error(key,
                       "conversation-level spawns belong to orchestrator conversations, "
                       "which are not supported");
    } else {
      return r.error(key,
                     "is not a dag_jsonl conversation field (session_id, turns, context_mode, "
                     "pre_session_spawns)");
    }
  }
  std::optional<std::string> sid;
  if (auto e = r.string("session_id", sid)) return e;
  if (!sid || sid->empty()) return r.error("session_id", "is required (a non-empty string)");
  const ojson* turns = r.get("turns");
  if (!turns || !turns->is_array() || turns->empty())
    return r.error("turns", "must be a non-empty list of turns");
  dc.conv.session_id = *sid;
  for (std::size_t k = 0; k < turns->size(); ++k)
    if (auto e = dag_turn(ctx, r, (*turns)[k], static_cast<int>(k), dc)) return e;
  if (auto [it, fresh] = by_id.emplace(*sid, convs.size()); !fresh) {
    return r.error("session_id", fmt::format("'{}' is also the session of line {}",
                                             core::excerpt(*sid), convs[it->second].line));
  }
  convs.push_back(std::move(dc));
  return std::nullopt;
}

}  // namespace

std::optional<core::Error> load_dag_jsonl(LoadContext& ctx, std::string_view content) {
  std::vector<DagConv> convs;
  std::unordered_map<std::string, std::size_t> by_id;
  if (auto e = for_each_json_line(content, ctx.file,
                                  [&](int line, ojson& j) -> std::optional<core::Error> {
                                    ++ctx.out.lines;
                                    return dag_line(ctx, line, j, convs, by_id);
                                  }))
    return e;
  // Every child names an existing conversation and has one parent; join turns lie ahead.
  std::vector<std::optional<std::size_t>> parent(convs.size());
  for (std::size_t p = 0; p < convs.size(); ++p) {
    const int turns = static_cast<int>(convs[p].conv.turns.size());
    for (const DagGroup& g : convs[p].groups) {
      const std::string field = fmt::format("turns[{}].spawns", g.turn);
      if (g.join_at && (*g.join_at <= g.turn || *g.join_at >= turns)) {
        return ctx.error(g.line, field + ".join_at",
                         fmt::format("must be a later turn of the conversation ({} to {}), got {}",
                                     g.turn + 1, turns - 1, *g.join_at));
      }
      for (const auto& child : g.children) {
        const auto it = by_id.find(child);
        if (it == by_id.end())
          return ctx.error(g.line, field,
                           fmt::format("'{}' is not a session of the file", core::excerpt(child)));
        if (it->second == p || parent[it->second]) {
          return ctx.error(g.line, field,
                           fmt::format("'{}' is already started by another turn (a session has "
                                       "one parent)",
                                       core::excerpt(child)));
        }
        parent[it->second] = p;
      }
    }
  }
  // Parents before their children (depth first from the roots, in file order).
  std::vector<std::size_t> order, new_index(convs.size());
  std::function<void(std::size_t)> visit = [&](std::size_t i) {
    new_index[i] = order.size();
    order.push_back(i);
    for (const DagGroup& g : convs[i].groups)
      for (const auto& child : g.children) visit(by_id.at(child));
  };
  for (std::size_t i = 0; i < convs.size(); ++i)
    if (!parent[i]) visit(i);
  if (order.size() != convs.size()) {
    for (std::size_t i = 0; i < convs.size(); ++i) {
      if (std::find(order.begin(), order.end(), i) == order.end())
        return ctx.error(convs[i].line, "turns",
                         "the session is part of a spawn cycle (no root conversation starts it)");
    }
  }
  auto& out = ctx.out.dataset.conversations;
  bool models = false;
  for (std::size_t i : order) {
    DagConv& dc = convs[i];
    for (const auto& t : dc.conv.turns) models = models || !t.model.empty();
    dc.conv.child = parent[i].has_value();
    for (const DagGroup& g : dc.groups) {
      const int turns = static_cast<int>(dc.conv.turns.size());
      const int join = g.join_at ? static_cast<int>(*g.join_at) : g.turn + 1;
      for (const auto& child : g.children) {
        const std::size_t c = by_id.at(child);
        ChildLink link;
        link.after_turn = g.turn;
        link.child = new_index[c];
        link.offset_ms = convs[c].first_delay_ms;
        if (join < turns) link.join_turn = join;  // a spawn on the last turn runs in background
        dc.conv.spawns.push_back(link);
      }
    }
    out.push_back(std::move(dc.conv));
  }
  ctx.out.dataset.models_assigned = models;
  return std::nullopt;
}

}  // namespace inferperf::dataset
