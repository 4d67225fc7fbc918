#include "app/tokenizer_setup.hpp"

#include <cstdlib>
#include <filesystem>
#include <unordered_map>
#include <utility>

#include "app/http_policy.hpp"
#include "tokenizer/bounded_count.hpp"
#include "tokenizer/resolve.hpp"
#include "transport/http_get.hpp"

namespace inferperf::app {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// The text a verbatim body sends: its messages' text contents (strings or text parts), or its
// completions prompt.
std::string request_text(const nlohmann::ordered_json& body) {
  std::string out;
  auto add = [&out](const nlohmann::ordered_json& v) {
    if (!v.is_string()) return;
    if (!out.empty()) out.push_back(' ');
    out += v.get<std::string>();
  };
  if (auto m = body.find("messages"); m != body.end() && m->is_array()) {
    for (const auto& msg : *m) {
      const auto c = msg.find("content");
      if (c == msg.end()) continue;
      if (c->is_array()) {
        for (const auto& part : *c)
          if (auto t = part.find("text"); t != part.end()) add(*t);
      } else {
        add(*c);
      }
    }
  } else if (auto p = body.find("prompt"); p != body.end()) {
    if (p->is_array()) {
      for (const auto& item : *p) add(item);
    } else {
      add(*p);
    }
  }
  return out;
}

}  // namespace

core::Result<LoadedTokenizer> load_run_tokenizer(const config::RunConfig& c) {
  tokenizer::ResolveOptions ro;
  ro.name = c.tokenizer.name.empty() ? c.endpoint.model_names.front() : c.tokenizer.name;
  ro.revision = c.tokenizer.revision;
  std::error_code exe_ec;
  ro.builtin_dir =
      tokenizer::builtin_dir_for(std::filesystem::read_symlink("/proc/self/exe", exe_ec));
  ro.hf_home = env("HF_HOME");
  ro.hf_hub_cache = env("HF_HUB_CACHE");
  ro.home = env("HOME");
  ro.xdg_cache_home = env("XDG_CACHE_HOME");
  if (!env("HF_ENDPOINT").empty()) ro.hf_endpoint = env("HF_ENDPOINT");
  ro.hf_token = env("HF_TOKEN");
  ro.offline = env("HF_HUB_OFFLINE") == "1" || env("HF_HUB_OFFLINE") == "true";
  if (c.tokenizer.name.empty()) ro.flag = "--tokenizer (the model name by default)";
  const transport::HttpPolicy http = make_http_policy(c);
  const tokenizer::HubFetch fetch =
      [&http](const std::string& target,
              const auto& headers) -> core::Result<tokenizer::HubResponse> {
    // The Hub is a third party: only HF_TOKEN (in `headers`) goes there, never the run's key.
    transport::GetRequest req = http.get(target, transport::Peer::kHub);
    req.headers = headers;
    req.timeout = http.hub_file_timeout;
    auto res = transport::http_get(req);
    if (!res) return res.error();
    return tokenizer::HubResponse{res->status, std::move(res->body), res->header("x-repo-commit")};
  };
  ro.fetch = &fetch;
  auto resolved = tokenizer::resolve_tokenizer(ro);
  if (!resolved) return resolved.error();
  auto loaded = tokenizer::load_tokenizer_file(resolved->file);
  if (!loaded) return loaded.error();
  return LoadedTokenizer{std::move(*loaded), resolved->description, resolved->notice,
                         resolved->file.string()};
}

ClientTokenCounter::ClientTokenCounter(const tokenizer::Tokenizer& tok, const dataset::Dataset& ds)
    : tok_(tok), ds_(ds) {
  for (const auto& conv : ds.conversations) by_id_.emplace(conv.session_id, &conv);
}

void ClientTokenCounter::remember_reply(const records::RequestRecord& r) {
  // A later turn's request carries the session's earlier replies: the records of the same session
  // (X-Correlation-ID) and earlier turns hold them. Only multi-turn sessions need them.
  if (r.error || r.content_events.empty()) return;
  const auto it = by_id_.find(r.conversation_id);
  if (it == by_id_.end() || it->second->turns.size() < 2) return;
  if (static_cast<std::size_t>(r.turn_index) + 1 >= it->second->turns.size()) return;
  std::string content;
  for (const auto& e : r.content_events) content += e.content;
  if (!content.empty()) replies_[r.x_correlation_id][r.turn_index] = std::move(content);
}

void ClientTokenCounter::count_in_order(records::RequestRecord& r) {
  count(r);
  remember_reply(r);
  // A session's last turn is counted: its replies are needed no more, so memory holds the
  // sessions in progress, not every reply of the run.
  const auto it = by_id_.find(r.conversation_id);
  if (it != by_id_.end() && static_cast<std::size_t>(r.turn_index) + 1 >= it->second->turns.size())
    replies_.erase(r.x_correlation_id);
}

std::string ClientTokenCounter::input_text(const records::RequestRecord& r,
                                           const dataset::Conversation& conv,
                                           std::int64_t& known) const {
  const auto& turns = conv.turns;
  const auto session = replies_.find(r.x_correlation_id);
  std::string input;
  auto add = [&input](const std::string& t) {
    if (t.empty()) return;
    if (!input.empty()) input.push_back(' ');
    input += t;
  };
  auto add_turn = [&](const dataset::Turn& t) {
    if (t.synthesized || !t.segments.empty()) {
      known += t.known_input_tokens();  // synthesized prompts are exact by construction
      return;
    }
    if (t.payload || t.messages) {
      add(request_text(t.payload ? *t.payload : nlohmann::ordered_json{{"messages", *t.messages}}));
      return;
    }
    add(t.text);
    for (const auto& more : t.more_texts) add(more);
  };
  const auto turn = static_cast<std::size_t>(r.turn_index);
  if (conv.context_mode == dataset::ContextMode::kMessageArrayWithResponses) {
    if (turn < turns.size()) add_turn(turns[turn]);
  } else if (conv.context_mode == dataset::ContextMode::kDeltasWithResponses) {
    // The file's messages since the last turn that re-sent the whole context; no replies.
    std::size_t from = 0;
    for (std::size_t k = 0; k <= turn && k < turns.size(); ++k)
      if (turns[k].reset_context) from = k;
    add(ds_.system_message);
    add(conv.user_context);
    for (std::size_t k = from; k <= turn && k < turns.size(); ++k) add_turn(turns[k]);
  } else {
    add(ds_.system_message);
    add(conv.user_context);
    for (std::size_t k = 0; k <= turn && k < turns.size(); ++k) {
      add_turn(turns[k]);
      if (k < turn && session != replies_.end()) {
        if (auto reply = session->second.find(static_cast<int>(k)); reply != session->second.end())
          add(reply->second);
      }
    }
  }
  return input;
}

void ClientTokenCounter::count(records::RequestRecord& r) const {
  if (auto it = by_id_.find(r.conversation_id); it != by_id_.end()) {
    std::int64_t known = 0;
    const std::string input = input_text(r, *it->second, known);
    r.client_tokens.input = static_cast<std::int64_t>(tok_.count(input)) + known;
  }
  if (r.content_events.empty()) return;
  // Output text is the server's: counted within a bound per text, estimated beyond it.
  auto count = [&](std::string_view text) {
    const auto c = tokenizer::count_bounded(tok_, text);
    r.client_tokens.output_estimated |= c.estimated;
    return c.tokens;
  };
  std::string content, reasoning;
  r.client_tokens.per_event.clear();
  r.client_tokens.output_estimated = false;
  for (const auto& e : r.content_events) {
    content += e.content;
    reasoning += e.reasoning;
    r.client_tokens.per_event.push_back(count(e.content) + count(e.reasoning));
  }
  r.client_tokens.output = count(content);
  if (!reasoning.empty()) r.client_tokens.reasoning = count(reasoning);
}

void count_tokens(const tokenizer::Tokenizer& tok, const dataset::Dataset& ds,
                  std::vector<records::RequestRecord>& recs) {
  ClientTokenCounter counter(tok, ds);
  for (const auto& r : recs) counter.remember_reply(r);
  for (auto& r : recs) counter.count(r);
}

namespace {
constexpr std::pair<dataset::ContextMode, std::string_view> kContextModes[] = {
    {dataset::ContextMode::kDeltasWithoutResponses, "deltas_without_responses"},
    {dataset::ContextMode::kDeltasWithResponses, "deltas_with_responses"},
    {dataset::ContextMode::kMessageArrayWithResponses, "message_array"},
};
}  // namespace

std::string context_mode_name(const dataset::Dataset& ds) {
  const auto mode = ds.conversations.empty() ? dataset::ContextMode::kDeltasWithoutResponses
                                             : ds.conversations.front().context_mode;
  for (const auto& [m, name] : kContextModes)
    if (m == mode) return std::string(name);
  return std::string(kContextModes[0].second);
}

std::optional<dataset::ContextMode> context_mode_of(std::string_view name) {
  for (const auto& [m, n] : kContextModes)
    if (n == name) return m;
  return std::nullopt;
}

}  // namespace inferperf::app
