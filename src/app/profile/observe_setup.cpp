#include "app/profile/observe_setup.hpp"

#include <spdlog/spdlog.h>

#include <unordered_map>

#include "app/profile/mlflow_setup.hpp"
#include "config/endpoint_type.hpp"
#include "core/version.hpp"

namespace inferperf::app {

namespace {

std::unordered_map<std::string, int> observe_turns_by_conversation(const dataset::Dataset& ds) {
  std::unordered_map<std::string, int> out;
  out.reserve(ds.conversations.size());
  for (const auto& conv : ds.conversations)
    out[conv.session_id] = static_cast<int>(conv.turns.size());
  return out;
}

}  // namespace

LiveObservers::LiveObservers(const PhaseRunner& phases, const dataset::Dataset& ds)
    : metrics_(observe_turns_by_conversation(ds), [&phases] {
        std::vector<observe::PhaseLoad> out;
        for (const ui::PhaseProgress& p : phases.progress())
          out.push_back({p.name, p.sent, p.in_flight});
        return out;
      }) {}

LiveObservers::~LiveObservers() {
  finish();
}

core::Result<std::unique_ptr<LiveObservers>> LiveObservers::open(const config::RunConfig& c,
                                                                 const PhaseRunner& phases,
                                                                 const dataset::Dataset& ds) {
  const config::ObservabilityConfig& o = c.observability;
  std::unique_ptr<LiveObservers> out(new LiveObservers(phases, ds));
  if (o.prometheus_port) {
    const observe::LiveMetrics& metrics = out->metrics_;
    auto endpoint = observe::PrometheusEndpoint::open(
        o.prometheus_host, *o.prometheus_port,
        [&metrics] { return observe::render_prometheus_text(metrics.snapshot()); });
    if (!endpoint) return endpoint.error();
    out->prometheus_ = std::move(*endpoint);
    spdlog::info("Prometheus endpoint of the client: http://{}:{}/metrics", o.prometheus_host,
                 out->prometheus_->port());
  }
  if (o.otel_enabled()) {
    observe::OtlpExporterOptions e;
    e.url = o.otel_url;
    e.interval = observe::otel_interval_from_environment();
    e.identity.service_version = kVersion;
    e.identity.resource_attributes = o.otel_resource_attributes;
    e.identity.operation_name = observe::gen_ai_operation_name(config::to_string(c.endpoint.type));
    if (!o.gen_ai_provider.empty()) e.identity.provider_name = o.gen_ai_provider;
    if (!c.endpoint.model_names.empty()) e.identity.request_model = c.endpoint.model_names.front();
    e.identity.metrics = o.stream_metrics;
    e.identity.timing = o.stream_timing;
    e.verify_tls = !c.endpoint.insecure;
    e.ssl_ca_file = c.endpoint.ssl_ca_file;
    out->otlp_ = std::make_unique<observe::OtlpExporter>(out->metrics_, std::move(e));
    spdlog::info("OTLP metrics pushed to {} every {} ms", o.otel_url,
                 observe::otel_interval_from_environment().count());
  }
  if (c.observability.mlflow.enabled()) out->open_mlflow_run(c);
  return out;
}

// The MLflow run, made now so the live scalars go to it; when the tracking server does not answer
// the export after the run tries again (and warns then, once).
void LiveObservers::open_mlflow_run(const config::RunConfig& c) {
  const observe::MlflowExportOptions o = mlflow_export_options(c);
  observe::MlflowClient client(o.client);
  auto run = observe::mlflow_open_run(client, o);
  if (!run) {
    spdlog::info("MLflow run not made before the benchmark ({}); tried again after it",
                 run.error().message);
    return;
  }
  mlflow_run_ = *run;
  mlflow_live_ = std::make_unique<observe::MlflowLiveLogger>(
      metrics_, o.client, *run, observe::mlflow_interval_from_environment());
  spdlog::info("MLflow run {} ({}): live scalars every {} ms", run->run_id,
               c.observability.mlflow.tracking_uri,
               observe::mlflow_interval_from_environment().count());
}

void LiveObservers::start() {
  if (prometheus_) prometheus_->start();
  if (otlp_) otlp_->start();
  if (mlflow_live_) mlflow_live_->start();
}

void LiveObservers::finish() {
  if (otlp_) otlp_->finish();
  if (mlflow_live_) mlflow_live_->finish();
  if (prometheus_) prometheus_->stop();
}

}  // namespace inferperf::app
