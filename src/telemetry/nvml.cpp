// NvmlSource: libnvidia-ml reached through dlopen/dlsym. No nvml.h exists at build time, so the
// handful of NVML types and constants used here are declared below from the NVML API reference.
//
// This file uses only the standard library, <dlfcn.h>, <unistd.h> and core/error so that it also
// builds on its own with the probe (tools/nvml_probe.cpp) on a machine without the project's
// dependencies.
#include "telemetry/nvml.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <utility>

namespace inferperf::telemetry {
// Named, not anonymous: NvmlSource::Impl holds these types, and a class with internal-linkage
// fields warns (-Wsubobject-linkage) once the unity builds include this file.
namespace nvml_abi {

// ---- The slice of the NVML C ABI this source needs ----------------------------------------------

using NvmlReturn = int;  // nvmlReturn_t, a C enum
constexpr NvmlReturn kNvmlSuccess = 0;

struct NvmlDeviceRecord;                  // opaque
using NvmlDevice = NvmlDeviceRecord*;     // nvmlDevice_t
constexpr unsigned kTemperatureGpu = 0;   // nvmlTemperatureSensors_t: NVML_TEMPERATURE_GPU
constexpr unsigned kPerfPolicyPower = 0;  // nvmlPerfPolicyType_t: NVML_PERF_POLICY_POWER
constexpr unsigned kNameBufferSize = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kUuidBufferSize = 96;  // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct NvmlPciInfo {  // nvmlPciInfo_t, the layout nvmlDeviceGetPciInfo_v3 fills
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_sub_system_id;
  char bus_id[32];  // "00000000:3B:00.0", the form DCGM exporters put in pci_bus_id
};

struct NvmlUtilization {  // nvmlUtilization_t, percent over the driver's last sample period
  unsigned int gpu;
  unsigned int memory;
};

// nvmlMemory_t (v1), bytes. As in pynvml's default call, `used` includes the driver's reserved
// memory (about 0.64 GB on an idle H200), which DCGM's FB_USED and nvidia-smi leave out.
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct NvmlViolationTime {            // nvmlViolationTime_t
  unsigned long long reference_time;  // µs, CPU timestamp
  unsigned long long violation_time;  // ns, accumulated
};

using InitFn = NvmlReturn (*)();
using ShutdownFn = NvmlReturn (*)();
using ErrorStringFn = const char* (*)(NvmlReturn);
using CountFn = NvmlReturn (*)(unsigned int*);
using HandleByIndexFn = NvmlReturn (*)(unsigned int, NvmlDevice*);
using TextFn = NvmlReturn (*)(NvmlDevice, char*, unsigned int);  // name, UUID
using PciInfoFn = NvmlReturn (*)(NvmlDevice, NvmlPciInfo*);
using UintFn = NvmlReturn (*)(NvmlDevice, unsigned int*);          // minor number, power (mW)
using EnergyFn = NvmlReturn (*)(NvmlDevice, unsigned long long*);  // mJ since driver load
using UtilizationFn = NvmlReturn (*)(NvmlDevice, NvmlUtilization*);
using MemoryFn = NvmlReturn (*)(NvmlDevice, NvmlMemory*);
using TemperatureFn = NvmlReturn (*)(NvmlDevice, unsigned int, unsigned int*);
// Encoder, decoder, JPEG: utilization in %, then the sampling period in µs.
using EngineUtilizationFn = NvmlReturn (*)(NvmlDevice, unsigned int*, unsigned int*);
using ViolationFn = NvmlReturn (*)(NvmlDevice, unsigned int, NvmlViolationTime*);

template <typename Fn>
Fn find_symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

// Text from a fixed-size buffer NVML filled; stops at the terminator or the buffer's end.
template <std::size_t N>
std::string text_of(const char (&buffer)[N]) {
  return std::string(buffer, strnlen(buffer, N));
}

core::Error failure(core::ErrorKind kind, std::string message) {
  core::Error error;
  error.kind = kind;
  error.message = std::move(message);
  return error;
}

std::string host_name() {
  std::array<char, 256> buffer{};
  if (gethostname(buffer.data(), buffer.size() - 1) != 0) return {};
  return std::string(buffer.data(), strnlen(buffer.data(), buffer.size()));
}

}  // namespace nvml_abi
using namespace nvml_abi;

struct NvmlSource::Impl {
  std::string library;
  void* handle = nullptr;
  bool initialised = false;

  ShutdownFn shutdown = nullptr;
  ErrorStringFn error_string = nullptr;  // optional
  // Optional queries; nullptr when the loaded library does not export them.
  TextFn get_name = nullptr;
  TextFn get_uuid = nullptr;
  PciInfoFn get_pci_info = nullptr;
  UintFn get_minor_number = nullptr;
  UintFn get_power_usage = nullptr;
  EnergyFn get_total_energy = nullptr;
  UtilizationFn get_utilization = nullptr;
  MemoryFn get_memory_info = nullptr;
  TemperatureFn get_temperature = nullptr;
  EngineUtilizationFn get_encoder_utilization = nullptr;
  EngineUtilizationFn get_decoder_utilization = nullptr;
  EngineUtilizationFn get_jpg_utilization = nullptr;
  ViolationFn get_violation_status = nullptr;

  struct Gpu {
    NvmlDevice device = nullptr;
    GpuIdentity identity;
  };
  std::vector<Gpu> gpus;
  std::vector<std::string> notes;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (initialised && shutdown != nullptr) shutdown();
    if (handle != nullptr) dlclose(handle);
  }

  std::string describe(NvmlReturn code) const {
    std::string out = "NVML error " + std::to_string(code);
    if (error_string != nullptr) {
      if (const char* text = error_string(code); text != nullptr) {
        out = std::string(text) + " (" + out + ")";
      }
    }
    return out;
  }

  void resolve_optional() {
    error_string = find_symbol<ErrorStringFn>(handle, "nvmlErrorString");
    get_name = find_symbol<TextFn>(handle, "nvmlDeviceGetName");
    get_uuid = find_symbol<TextFn>(handle, "nvmlDeviceGetUUID");
    get_pci_info = find_symbol<PciInfoFn>(handle, "nvmlDeviceGetPciInfo_v3");
    get_minor_number = find_symbol<UintFn>(handle, "nvmlDeviceGetMinorNumber");
    get_power_usage = find_symbol<UintFn>(handle, "nvmlDeviceGetPowerUsage");
    get_total_energy = find_symbol<EnergyFn>(handle, "nvmlDeviceGetTotalEnergyConsumption");
    get_utilization = find_symbol<UtilizationFn>(handle, "nvmlDeviceGetUtilizationRates");
    get_memory_info = find_symbol<MemoryFn>(handle, "nvmlDeviceGetMemoryInfo");
    get_temperature = find_symbol<TemperatureFn>(handle, "nvmlDeviceGetTemperature");
    get_encoder_utilization =
        find_symbol<EngineUtilizationFn>(handle, "nvmlDeviceGetEncoderUtilization");
    get_decoder_utilization =
        find_symbol<EngineUtilizationFn>(handle, "nvmlDeviceGetDecoderUtilization");
    get_jpg_utilization = find_symbol<EngineUtilizationFn>(handle, "nvmlDeviceGetJpgUtilization");
    get_violation_status = find_symbol<ViolationFn>(handle, "nvmlDeviceGetViolationStatus");
  }

  GpuIdentity identify(unsigned int index, NvmlDevice device, const std::string& host) const {
    GpuIdentity id;
    id.index = static_cast<int>(index);
    id.hostname = host;
    if (get_name != nullptr) {
      char name[kNameBufferSize] = {};
      if (get_name(device, name, kNameBufferSize) == kNvmlSuccess) id.model_name = text_of(name);
    }
    if (get_uuid != nullptr) {
      char uuid[kUuidBufferSize] = {};
      if (get_uuid(device, uuid, kUuidBufferSize) == kNvmlSuccess) id.uuid = text_of(uuid);
    }
    if (get_pci_info != nullptr) {
      NvmlPciInfo pci{};
      if (get_pci_info(device, &pci) == kNvmlSuccess) id.pci_bus_id = text_of(pci.bus_id);
    }
    if (get_minor_number != nullptr) {
      unsigned int minor = 0;
      if (get_minor_number(device, &minor) == kNvmlSuccess) {
        id.device = "nvidia" + std::to_string(minor);
      }
    }
    return id;
  }

  void read(NvmlDevice device, GpuSample& s) const {
    if (get_power_usage != nullptr) {
      unsigned int milliwatts = 0;
      if (get_power_usage(device, &milliwatts) == kNvmlSuccess) {
        s[GpuMetric::kPowerUsage] = milliwatts / 1e3;  // mW → W
      }
    }
    if (get_total_energy != nullptr) {
      unsigned long long millijoules = 0;
      if (get_total_energy(device, &millijoules) == kNvmlSuccess) {
        s[GpuMetric::kEnergyConsumption] = static_cast<double>(millijoules) / 1e9;  // mJ → MJ
      }
    }
    if (get_utilization != nullptr) {
      NvmlUtilization utilization{};
      if (get_utilization(device, &utilization) == kNvmlSuccess) {
        s[GpuMetric::kGpuUtilization] = utilization.gpu;
        s[GpuMetric::kMemUtilization] = utilization.memory;
      }
    }
    if (get_memory_info != nullptr) {
      NvmlMemory memory{};
      if (get_memory_info(device, &memory) == kNvmlSuccess) {
        s[GpuMetric::kMemoryUsed] = static_cast<double>(memory.used) / 1e9;  // bytes → GB
      }
    }
    if (get_temperature != nullptr) {
      unsigned int celsius = 0;
      if (get_temperature(device, kTemperatureGpu, &celsius) == kNvmlSuccess) {
        s[GpuMetric::kTemperature] = celsius;
      }
    }
    read_engine(get_encoder_utilization, device, s[GpuMetric::kEncoderUtilization]);
    read_engine(get_decoder_utilization, device, s[GpuMetric::kDecoderUtilization]);
    read_engine(get_jpg_utilization, device, s[GpuMetric::kJpegUtilization]);
    if (get_violation_status != nullptr) {
      NvmlViolationTime violation{};
      if (get_violation_status(device, kPerfPolicyPower, &violation) == kNvmlSuccess) {
        s[GpuMetric::kPowerViolation] =
            static_cast<double>(violation.violation_time) / 1e3;  // ns → µs
      }
    }
  }

  static void read_engine(EngineUtilizationFn fn, NvmlDevice device, std::optional<double>& out) {
    if (fn == nullptr) return;
    unsigned int percent = 0;
    unsigned int period_us = 0;
    if (fn(device, &percent, &period_us) == kNvmlSuccess) out = percent;
  }
};

core::Result<std::unique_ptr<NvmlSource>> NvmlSource::open(std::string library) {
  auto impl = std::make_unique<Impl>();
  impl->library = std::move(library);

  dlerror();  // clear any earlier message
  impl->handle = dlopen(impl->library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (impl->handle == nullptr) {
    const char* why = dlerror();
    return failure(core::ErrorKind::kConfig,
                   "NVML library " + impl->library +
                       " not found (no NVIDIA driver on this machine?): " +
                       (why != nullptr ? why : "dlopen failed"));
  }

  auto init = find_symbol<InitFn>(impl->handle, "nvmlInit_v2");
  impl->shutdown = find_symbol<ShutdownFn>(impl->handle, "nvmlShutdown");
  auto count = find_symbol<CountFn>(impl->handle, "nvmlDeviceGetCount_v2");
  auto by_index = find_symbol<HandleByIndexFn>(impl->handle, "nvmlDeviceGetHandleByIndex_v2");
  for (auto [present, name] : {std::pair{init != nullptr, "nvmlInit_v2"},
                               std::pair{impl->shutdown != nullptr, "nvmlShutdown"},
                               std::pair{count != nullptr, "nvmlDeviceGetCount_v2"},
                               std::pair{by_index != nullptr, "nvmlDeviceGetHandleByIndex_v2"}}) {
    if (!present) {
      return failure(core::ErrorKind::kConfig, "NVML library " + impl->library +
                                                   " does not export " + name +
                                                   " (NVIDIA driver too old?)");
    }
  }
  impl->resolve_optional();

  if (NvmlReturn rc = init(); rc != kNvmlSuccess) {
    return failure(core::ErrorKind::kRun,
                   "nvmlInit_v2 failed for " + impl->library + ": " + impl->describe(rc));
  }
  impl->initialised = true;

  unsigned int devices = 0;
  if (NvmlReturn rc = count(&devices); rc != kNvmlSuccess) {
    return failure(core::ErrorKind::kRun, "nvmlDeviceGetCount_v2 failed: " + impl->describe(rc));
  }
  const std::string host = host_name();
  for (unsigned int i = 0; i < devices; ++i) {
    NvmlDevice device = nullptr;
    if (NvmlReturn rc = by_index(i, &device); rc != kNvmlSuccess) {
      impl->notes.push_back(
          "GPU " + std::to_string(i) +
          " skipped: nvmlDeviceGetHandleByIndex_v2 failed: " + impl->describe(rc));
      continue;
    }
    impl->gpus.push_back({device, impl->identify(i, device, host)});
  }
  return std::unique_ptr<NvmlSource>(new NvmlSource(std::move(impl)));
}

NvmlSource::NvmlSource(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

NvmlSource::~NvmlSource() = default;

std::vector<GpuSample> NvmlSource::sample(std::int64_t mono_ns) const {
  std::vector<GpuSample> out;
  out.reserve(impl_->gpus.size());
  for (const Impl::Gpu& gpu : impl_->gpus) {
    GpuSample& s = out.emplace_back();
    s.mono_ns = mono_ns;
    s.source = "nvml";
    s.gpu = gpu.identity;
    impl_->read(gpu.device, s);
  }
  return out;
}

std::size_t NvmlSource::gpu_count() const {
  return impl_->gpus.size();
}

const std::string& NvmlSource::library() const {
  return impl_->library;
}

const std::vector<std::string>& NvmlSource::notes() const {
  return impl_->notes;
}

}  // namespace inferperf::telemetry
