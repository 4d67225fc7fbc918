// GPU telemetry read in-process from NVML (`--gpu-telemetry nvml`, alias `pynvml`).
//
// libnvidia-ml is opened at run time with dlopen, so the binary starts and runs on machines without
// an NVIDIA driver; only open() fails there, with a message saying so. Values come back in the
// units of the shared GpuSample (W, MJ, %, GB, °C, µs).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "telemetry/gpu_sample.hpp"

namespace inferperf::telemetry {

class NvmlSource {
 public:
  // Loads `library` (a soname searched the usual way, or a path), initialises NVML and enumerates
  // the GPUs. Errors: the library cannot be loaded, a required symbol is missing, nvmlInit_v2 or
  // the device count fails. A GPU whose handle cannot be obtained is skipped and noted in notes().
  static core::Result<std::unique_ptr<NvmlSource>> open(std::string library = "libnvidia-ml.so.1");

  ~NvmlSource();  // nvmlShutdown, then dlclose
  NvmlSource(const NvmlSource&) = delete;
  NvmlSource& operator=(const NvmlSource&) = delete;

  // One sample per GPU found by open(), stamped with mono_ns and source "nvml". A query that is
  // missing from the library or answers with an error leaves that metric nullopt; it never fails
  // the sample. sm_utilization and xid_errors are never reported by this source.
  std::vector<GpuSample> sample(std::int64_t mono_ns) const;

  std::size_t gpu_count() const;
  const std::string& library() const;
  // Problems met by open() that did not stop it (GPUs skipped), one sentence each.
  const std::vector<std::string>& notes() const;

 private:
  struct Impl;
  explicit NvmlSource(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace inferperf::telemetry
