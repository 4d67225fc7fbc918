// The MLflow run made before the benchmark (--mlflow-tracking-uri) and its live scalars:
// `live.<OTel metric name>` of the profiling phase (live.aiperf.timing.requests.completed, ...)
// logged from their own thread every interval and once more at finish(). The export after the
// run (mlflow_export.hpp) then logs to the same run. A failed live log costs one warning and ends
// the live logging; the run itself is not touched by it.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "observe/live_metrics.hpp"
#include "observe/mlflow_client.hpp"

namespace inferperf::observe {

struct MlflowRunRef {
  std::string experiment_id, run_id;
};

// The live scalars of a snapshot: the profiling phase's counters and in-flight gauges under
// their OTel names (the warmup's are not logged), plus the histograms' counts and sums
// (live.gen_ai.client.operation.duration.count / .sum).
std::vector<MlflowMetric> mlflow_live_metrics(const MetricsSnapshot& s);

// INFERPERF_MLFLOW_INTERVAL_MS when set to a positive number, else 10 s.
std::chrono::milliseconds mlflow_interval_from_environment();

class MlflowLiveLogger {
 public:
  MlflowLiveLogger(const LiveMetrics& metrics, MlflowClientOptions client, MlflowRunRef run,
                   std::chrono::milliseconds interval);
  ~MlflowLiveLogger();
  MlflowLiveLogger(const MlflowLiveLogger&) = delete;
  MlflowLiveLogger& operator=(const MlflowLiveLogger&) = delete;

  void start();
  // The last log (after the last record), then the thread ends.
  void finish();

 private:
  void run();
  bool log_once(long step);

  const LiveMetrics& metrics_;
  MlflowClient client_;
  const MlflowClientOptions options_;
  const MlflowRunRef run_;
  const std::chrono::milliseconds interval_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

}  // namespace inferperf::observe
