/* A stand-in libnvidia-ml.so.1 for the NVML telemetry tests: two GPUs with fixed raw readings.
 *
 * It exports the NVML entry points telemetry/nvml.cpp looks up, with the documented C signatures,
 * and checks its arguments the way the real library does (initialised, known handle, buffer
 * size, sensor and policy), so a wrong call shows up as a missing metric in the tests.
 *
 * Raw readings (GPU 0 / GPU 1):
 *   power            123456 / 234567 mW
 *   total energy     5'000'000'000 / 7'000'000'000 mJ, + 250'000'000 mJ after every read
 *   utilization      gpu 37 / 88 %, memory 12 / 64 %
 *   memory used      42'000'000'000 / 80'500'000'000 bytes
 *   temperature      55 / 61 °C
 *   encoder/decoder  4 / 0 %, 9 / 2 %
 *   JPEG             3 % / NVML_ERROR_NOT_SUPPORTED
 *   power violation  1'500'000 / 0 ns, + 20'000 / 40'000 ns after every read
 * Counters restart when nvmlInit_v2 is called with the library not initialised.
 *
 * Built twice: as is, and with NVML_STUB_OLD_DRIVER, which leaves out nvmlErrorString,
 * nvmlDeviceGetTotalEnergyConsumption and nvmlDeviceGetJpgUtilization (an older driver).
 * NVML_STUB_INIT_ERROR=<code> in the environment makes nvmlInit_v2 return that code.
 */
#include <stdlib.h>
#include <string.h>

typedef int nvmlReturn_t;
enum {
  NVML_SUCCESS = 0,
  NVML_ERROR_UNINITIALIZED = 1,
  NVML_ERROR_INVALID_ARGUMENT = 2,
  NVML_ERROR_NOT_SUPPORTED = 3,
  NVML_ERROR_INSUFFICIENT_SIZE = 7,
  NVML_ERROR_DRIVER_NOT_LOADED = 9,
  NVML_ERROR_UNKNOWN = 999
};

struct nvmlDevice_st {
  int index;
};
typedef struct nvmlDevice_st* nvmlDevice_t;

typedef struct {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef struct {
  unsigned int gpu;
  unsigned int memory;
} nvmlUtilization_t;

typedef struct {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

typedef struct {
  unsigned long long referenceTime;
  unsigned long long violationTime;
} nvmlViolationTime_t;

#define STUB_GPUS 2
#define ENERGY_STEP_MJ 250000000ULL

struct stub_gpu {
  const char* name;
  const char* uuid;
  const char* bus_id;
  const char* bus_id_legacy;
  unsigned int bus;
  unsigned int minor;
  unsigned int power_mw;
  unsigned long long energy_mj;
  unsigned int util_gpu;
  unsigned int util_memory;
  unsigned long long memory_total;
  unsigned long long memory_used;
  unsigned int temperature;
  unsigned int encoder;
  unsigned int decoder;
  int jpg; /* -1: not supported */
  unsigned long long violation_ns;
  unsigned long long violation_step_ns;
};

static const struct stub_gpu kGpus[STUB_GPUS] = {
    {"NVIDIA H200", "GPU-0c0ffee0-0000-4000-8000-000000000000", "00000000:19:00.0", "0000:19:00.0",
     0x19, 0, 123456, 5000000000ULL, 37, 12, 150000000000ULL, 42000000000ULL, 55, 4, 9, 3,
     1500000ULL, 20000ULL},
    {"NVIDIA H200", "GPU-0c0ffee1-1111-4111-8111-111111111111", "00000000:3B:00.0", "0000:3B:00.0",
     0x3b, 1, 234567, 7000000000ULL, 88, 64, 150000000000ULL, 80500000000ULL, 61, 0, 2, -1, 0ULL,
     40000ULL},
};

static struct nvmlDevice_st devices[STUB_GPUS] = {{0}, {1}};
static int init_count;
static unsigned long long energy_reads[STUB_GPUS];
static unsigned long long violation_reads[STUB_GPUS];

/* The GPU behind a handle, or NULL when the library is not initialised or the handle is foreign. */
static const struct stub_gpu* gpu_of(nvmlDevice_t device, nvmlReturn_t* rc) {
  if (init_count == 0) {
    *rc = NVML_ERROR_UNINITIALIZED;
    return NULL;
  }
  if (device != &devices[0] && device != &devices[1]) {
    *rc = NVML_ERROR_INVALID_ARGUMENT;
    return NULL;
  }
  *rc = NVML_SUCCESS;
  return &kGpus[device->index];
}

static nvmlReturn_t copy_text(const char* text, char* out, unsigned int length) {
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (strlen(text) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
  memcpy(out, text, strlen(text) + 1);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlInit_v2(void) {
  const char* forced = getenv("NVML_STUB_INIT_ERROR");
  if (forced != NULL && *forced != '\0') return (nvmlReturn_t)atoi(forced);
  if (init_count++ == 0) {
    memset(energy_reads, 0, sizeof energy_reads);
    memset(violation_reads, 0, sizeof violation_reads);
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void) {
  if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
  --init_count;
  return NVML_SUCCESS;
}

#ifndef NVML_STUB_OLD_DRIVER
const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS:
      return "Success";
    case NVML_ERROR_UNINITIALIZED:
      return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
      return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case NVML_ERROR_INSUFFICIENT_SIZE:
      return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "Driver Not Loaded";
    default:
      return "Unknown Error";
  }
}
#endif

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *count = STUB_GPUS;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
  if (index >= STUB_GPUS || device == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *device = &devices[index];
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  return gpu == NULL ? rc : copy_text(gpu->name, name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  return gpu == NULL ? rc : copy_text(gpu->uuid, uuid, length);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (pci == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  memset(pci, 0, sizeof *pci);
  strcpy(pci->busIdLegacy, gpu->bus_id_legacy);
  pci->bus = gpu->bus;
  pci->pciDeviceId = 0x233510deU;
  pci->pciSubSystemId = 0x180710deU;
  strcpy(pci->busId, gpu->bus_id);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int* minor) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (minor == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *minor = gpu->minor;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (power == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *power = gpu->power_mw;
  return NVML_SUCCESS;
}

#ifndef NVML_STUB_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long* energy) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (energy == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *energy = gpu->energy_mj + ENERGY_STEP_MJ * energy_reads[device->index]++;
  return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* utilization) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (utilization == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  utilization->gpu = gpu->util_gpu;
  utilization->memory = gpu->util_memory;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (memory == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  memory->total = gpu->memory_total;
  memory->used = gpu->memory_used;
  memory->free = gpu->memory_total - gpu->memory_used;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int* temperature) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (sensor != 0 || temperature == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *temperature = gpu->temperature;
  return NVML_SUCCESS;
}

static nvmlReturn_t engine(nvmlDevice_t device, int which, unsigned int* utilization,
                           unsigned int* period_us) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  int value;
  if (gpu == NULL) return rc;
  if (utilization == NULL || period_us == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  value = which == 0 ? (int)gpu->encoder : which == 1 ? (int)gpu->decoder : gpu->jpg;
  if (value < 0) return NVML_ERROR_NOT_SUPPORTED;
  *utilization = (unsigned int)value;
  *period_us = 167000;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t device, unsigned int* utilization,
                                             unsigned int* period_us) {
  return engine(device, 0, utilization, period_us);
}

nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t device, unsigned int* utilization,
                                             unsigned int* period_us) {
  return engine(device, 1, utilization, period_us);
}

#ifndef NVML_STUB_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetJpgUtilization(nvmlDevice_t device, unsigned int* utilization,
                                         unsigned int* period_us) {
  return engine(device, 2, utilization, period_us);
}
#endif

nvmlReturn_t nvmlDeviceGetViolationStatus(nvmlDevice_t device, int policy,
                                          nvmlViolationTime_t* violation) {
  nvmlReturn_t rc;
  const struct stub_gpu* gpu = gpu_of(device, &rc);
  if (gpu == NULL) return rc;
  if (violation == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (policy != 0) return NVML_ERROR_NOT_SUPPORTED; /* only NVML_PERF_POLICY_POWER */
  violation->referenceTime = 1700000000000000ULL;
  violation->violationTime =
      gpu->violation_ns + gpu->violation_step_ns * violation_reads[device->index]++;
  return NVML_SUCCESS;
}

/* Not NVML: lets a test see whether every nvmlInit_v2 was matched by an nvmlShutdown. */
int nvml_stub_init_count(void) {
  return init_count;
}
