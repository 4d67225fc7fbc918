#include "app/profile/run_inputs.hpp"

#include <string>
#include <vector>

#include "app/profile/input_config.hpp"
#include "core/secrets.hpp"

namespace inferperf::app {

core::Result<artifacts::InputsJsonStats> write_run_inputs(const std::filesystem::path& path,
                                                          const dataset::Dataset& ds,
                                                          worker::RequestPlan& plan) {
  const std::vector<std::string> secret_keys = plan.body_options.extra
                                                   ? secret_extra_keys(*plan.body_options.extra)
                                                   : std::vector<std::string>{};
  plan.bodies.assign(ds.conversations.size(), std::string());
  return artifacts::write_inputs_json(path, ds.conversations.size(), [&](std::size_t i) {
    const auto& conv = ds.conversations[i];
    artifacts::InputsEntry entry;
    entry.session_id = conv.session_id;
    for (std::size_t k = 0; k < conv.turns.size(); ++k) {
      const dataset::Turn turn = dataset::materialize(ds, conv.turns[k]);
      auto body = worker::build_body(plan, conv, {turn});
      if (k == 0 && !conv.turns[k].synthesized && conv.turns[k].segments.empty())
        plan.bodies[i] = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      // A credential given with --extra-inputs is sent, never written to the artifact folder.
      for (const auto& key : secret_keys) {
        if (body.is_object() && body.contains(key)) body[key] = std::string(core::kRedacted);
      }
      entry.payloads.push_back(std::move(body));
    }
    return entry;
  });
}

}  // namespace inferperf::app
