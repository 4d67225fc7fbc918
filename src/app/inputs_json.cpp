#include "app/inputs_json.hpp"

#include <cstdio>
#include <memory>

#include "app/input_config.hpp"
#include "core/secrets.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

// `text` (a dump at indent 2) indented by `pad` more spaces, as it sits inside the document.
void append_indented(std::string& out, const std::string& text, std::string_view pad) {
  out.append(pad);
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    out.append(text, start, nl + 1 - start);
    out.append(pad);
  }
  out.append(text, start, std::string::npos);
}

}  // namespace

core::Result<InputsJsonStats> write_inputs_json(const fs::path& path, const dataset::Dataset& ds,
                                                worker::RequestPlan& plan) {
  const fs::path tmp = fs::path(path.string() + ".tmp");
  auto io_error = [&](const std::string& what) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return core::Error{core::ErrorKind::kIo, what, path.string(), 0, ""};
  };
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(tmp.c_str(), "wb"));
  if (!f) return io_error("cannot be written");
  InputsJsonStats stats;
  const std::vector<std::string> secret_keys = plan.body_options.extra
                                                   ? secret_extra_keys(*plan.body_options.extra)
                                                   : std::vector<std::string>{};
  plan.bodies.assign(ds.conversations.size(), std::string());
  std::string chunk = "{\n  \"data\": [";
  for (std::size_t i = 0; i < ds.conversations.size(); ++i) {
    const auto& conv = ds.conversations[i];
    nlohmann::ordered_json entry;
    entry["session_id"] = conv.session_id;
    auto payloads = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < conv.turns.size(); ++k) {
      const dataset::Turn turn = dataset::materialize(ds, conv.turns[k]);
      auto body = worker::build_body(plan, conv, {turn});
      if (k == 0 && !conv.turns[k].synthesized && conv.turns[k].segments.empty())
        plan.bodies[i] = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      // A credential given with --extra-inputs is sent, never written to the artifact folder.
      for (const auto& key : secret_keys) {
        if (body.is_object() && body.contains(key)) body[key] = std::string(core::kRedacted);
      }
      payloads.push_back(std::move(body));
    }
    stats.payloads += payloads.size();
    entry["payloads"] = std::move(payloads);
    chunk += i == 0 ? "\n" : ",\n";
    append_indented(chunk, entry.dump(2, ' ', false, nlohmann::json::error_handler_t::replace),
                    "    ");
    if (chunk.size() > (1u << 20) || i + 1 == ds.conversations.size()) {
      if (std::fwrite(chunk.data(), 1, chunk.size(), f.get()) != chunk.size())
        return io_error("write failed (disk full?)");
      stats.bytes += chunk.size();
      chunk.clear();
    }
    ++stats.conversations;
  }
  chunk += ds.conversations.empty() ? "]\n}" : "\n  ]\n}";
  if (std::fwrite(chunk.data(), 1, chunk.size(), f.get()) != chunk.size() ||
      std::fflush(f.get()) != 0)
    return io_error("write failed (disk full?)");
  stats.bytes += chunk.size();
  if (std::fclose(f.release()) != 0) return io_error("write failed (disk full?)");
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return io_error("cannot be renamed into place: " + ec.message());
  return stats;
}

}  // namespace inferperf::app
