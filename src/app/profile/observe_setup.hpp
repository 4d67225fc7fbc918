// LiveObservers: the run's live exporters (docs/observability.md): the OTLP/HTTP push of
// --otel-url and the Prometheus endpoint of --prometheus-port, both reading one
// observe::LiveMetrics that the records collector feeds. Opened before any traffic (a port that
// cannot be bound is a configuration error), started with the phases, finished after the last
// record is collected.
#pragma once
#include <memory>

#include "app/profile/phase_runner.hpp"
#include "config/run_config.hpp"
#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "observe/live_metrics.hpp"
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

  bool active() const { return otlp_ || prometheus_; }
  // Collector thread.
  void add(const records::RequestRecord& r) { metrics_.add(r); }
  void start();
  // The final push (bounded, docs/observability.md) and the endpoint closed.
  void finish();

 private:
  LiveObservers(const PhaseRunner& phases, const dataset::Dataset& ds);
  observe::LiveMetrics metrics_;
  std::unique_ptr<observe::OtlpExporter> otlp_;
  std::unique_ptr<observe::PrometheusEndpoint> prometheus_;
};

}  // namespace inferperf::app
