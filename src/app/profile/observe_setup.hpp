// LiveObservers: the run's live exporters (docs/observability.md): the OTLP/HTTP push of
// --otel-url, the Prometheus endpoint of --prometheus-port and the MLflow run's live scalars of
// --mlflow-tracking-uri, all reading one
// observe::LiveMetrics that the records collector feeds. Opened before any traffic (a port that
// cannot be bound is a configuration error), started with the phases, finished after the last
// record is collected.
#pragma once
#include <memory>
#include <optional>

#include "app/profile/phase_runner.hpp"
#include "config/run_config.hpp"
#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "observe/live_metrics.hpp"
#include "observe/mlflow_live.hpp"
#include "observe/otlp_exporter.hpp"
#include "observe/prometheus_endpoint.hpp"

namespace inferperf::app {

class LiveObservers {
 public:
  // Nothing is opened unless --otel-url or --prometheus-port is given.
  static core::Result<std::unique_ptr<LiveObservers>> open(const config::RunConfig& c,
                                                           const PhaseRunner& phases,
                                                           const dataset::Dataset& ds);
  ~LiveObservers();

  bool active() const { return otlp_ || prometheus_ || mlflow_live_; }
  // The MLflow run made before the benchmark (--mlflow-tracking-uri), or null.
  const observe::MlflowRunRef* mlflow_run() const { return mlflow_run_ ? &*mlflow_run_ : nullptr; }
  // Collector thread.
  void add(const records::RequestRecord& r) { metrics_.add(r); }
  void start();
  // The final push (bounded, docs/observability.md) and the endpoint closed.
  void finish();

 private:
  LiveObservers(const PhaseRunner& phases, const dataset::Dataset& ds);
  void open_mlflow_run(const config::RunConfig& c);
  observe::LiveMetrics metrics_;
  std::unique_ptr<observe::OtlpExporter> otlp_;
  std::unique_ptr<observe::PrometheusEndpoint> prometheus_;
  std::optional<observe::MlflowRunRef> mlflow_run_;
  std::unique_ptr<observe::MlflowLiveLogger> mlflow_live_;
};

}  // namespace inferperf::app
