// telemetry/nvml: NvmlSource against the stub libnvidia-ml.so.1 (tests/nvml_stub/nvml_stub.c,
// whose header comment lists the raw readings): unit scaling, identity, counter steps, metrics a
// GPU or an older library does not provide, and the errors open() reports.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "telemetry/nvml.hpp"

namespace {

using inferperf::core::ErrorKind;
using namespace inferperf::telemetry;

std::optional<double> v(double x) {
  return x;
}

std::unique_ptr<NvmlSource> open_or_fail(const char* library) {
  auto source = NvmlSource::open(library);
  if (!source) {
    ADD_FAILURE() << source.error().message;
    return nullptr;
  }
  return std::move(*source);
}

TEST(NvmlOpen, MissingLibraryExplainsThereIsNoDriver) {
  auto source = NvmlSource::open("libnvidia-ml-absent.so.1");
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.error().kind, ErrorKind::kConfig);
  const std::string& message = source.error().message;
  const std::string lead =
      "NVML library libnvidia-ml-absent.so.1 not found (no NVIDIA driver on this machine?): ";
  EXPECT_EQ(message.substr(0, lead.size()), lead) << message;
  EXPECT_NE(message.find("cannot open shared object file"), std::string::npos) << message;
}

TEST(NvmlOpen, LibraryWithoutNvmlNamesTheMissingSymbol) {
  auto source = NvmlSource::open("libc.so.6");
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.error().message,
            "NVML library libc.so.6 does not export nvmlInit_v2 (NVIDIA driver too old?)");
}

class NvmlInitError : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("NVML_STUB_INIT_ERROR", "9", 1); }
  void TearDown() override { ::unsetenv("NVML_STUB_INIT_ERROR"); }
};

TEST_F(NvmlInitError, ReportedWithNvmlErrorString) {
  auto source = NvmlSource::open(INFERPERF_NVML_STUB);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.error().kind, ErrorKind::kRun);
  EXPECT_EQ(source.error().message, std::string("nvmlInit_v2 failed for ") + INFERPERF_NVML_STUB +
                                        ": Driver Not Loaded (NVML error 9)");
}

TEST_F(NvmlInitError, ReportedByCodeWhenTheLibraryHasNoErrorString) {
  auto source = NvmlSource::open(INFERPERF_NVML_STUB_OLD);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.error().message,
            std::string("nvmlInit_v2 failed for ") + INFERPERF_NVML_STUB_OLD + ": NVML error 9");
}

TEST(NvmlSample, TwoGpusWithScaledValues) {
  auto nvml = open_or_fail(INFERPERF_NVML_STUB);
  ASSERT_NE(nvml, nullptr);
  EXPECT_EQ(nvml->gpu_count(), 2U);
  EXPECT_TRUE(nvml->notes().empty());
  EXPECT_EQ(nvml->library(), INFERPERF_NVML_STUB);

  const auto samples = nvml->sample(1'000);
  ASSERT_EQ(samples.size(), 2U);

  const GpuSample& a = samples[0];
  EXPECT_EQ(a[GpuMetric::kPowerUsage], v(123.456));     // 123456 mW
  EXPECT_EQ(a[GpuMetric::kEnergyConsumption], v(5.0));  // 5'000'000'000 mJ
  EXPECT_EQ(a[GpuMetric::kGpuUtilization], v(37));
  EXPECT_EQ(a[GpuMetric::kMemUtilization], v(12));
  EXPECT_EQ(a[GpuMetric::kMemoryUsed], v(42.0));  // 42'000'000'000 bytes
  EXPECT_EQ(a[GpuMetric::kTemperature], v(55));
  EXPECT_EQ(a[GpuMetric::kEncoderUtilization], v(4));
  EXPECT_EQ(a[GpuMetric::kDecoderUtilization], v(9));
  EXPECT_EQ(a[GpuMetric::kJpegUtilization], v(3));
  EXPECT_EQ(a[GpuMetric::kPowerViolation], v(1500.0));    // 1'500'000 ns
  EXPECT_EQ(a[GpuMetric::kSmUtilization], std::nullopt);  // needs GPM
  EXPECT_EQ(a[GpuMetric::kXidErrors], std::nullopt);      // needs event sets

  const GpuSample& b = samples[1];
  EXPECT_EQ(b[GpuMetric::kPowerUsage], v(234.567));
  EXPECT_EQ(b[GpuMetric::kEnergyConsumption], v(7.0));
  EXPECT_EQ(b[GpuMetric::kGpuUtilization], v(88));
  EXPECT_EQ(b[GpuMetric::kMemUtilization], v(64));
  EXPECT_EQ(b[GpuMetric::kMemoryUsed], v(80.5));
  EXPECT_EQ(b[GpuMetric::kTemperature], v(61));
  EXPECT_EQ(b[GpuMetric::kEncoderUtilization], v(0));
  EXPECT_EQ(b[GpuMetric::kDecoderUtilization], v(2));
  EXPECT_EQ(b[GpuMetric::kJpegUtilization], std::nullopt);  // NVML_ERROR_NOT_SUPPORTED
  EXPECT_EQ(b[GpuMetric::kPowerViolation], v(0.0));
  EXPECT_EQ(b[GpuMetric::kSmUtilization], std::nullopt);
  EXPECT_EQ(b[GpuMetric::kXidErrors], std::nullopt);
}

TEST(NvmlSample, IdentityOfEachGpu) {
  auto nvml = open_or_fail(INFERPERF_NVML_STUB);
  ASSERT_NE(nvml, nullptr);
  const auto samples = nvml->sample(42);
  ASSERT_EQ(samples.size(), 2U);

  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);

  for (const GpuSample& s : samples) {
    EXPECT_EQ(s.mono_ns, 42);
    EXPECT_EQ(s.source, "nvml");
    EXPECT_EQ(s.gpu.model_name, "NVIDIA H200");
    EXPECT_EQ(s.gpu.hostname, host);
    EXPECT_EQ(s.gpu.namespace_, "");
    EXPECT_EQ(s.gpu.pod, "");
  }
  EXPECT_EQ(samples[0].gpu.index, 0);
  EXPECT_EQ(samples[0].gpu.uuid, "GPU-0c0ffee0-0000-4000-8000-000000000000");
  EXPECT_EQ(samples[0].gpu.pci_bus_id, "00000000:19:00.0");
  EXPECT_EQ(samples[0].gpu.device, "nvidia0");
  EXPECT_EQ(samples[1].gpu.index, 1);
  EXPECT_EQ(samples[1].gpu.uuid, "GPU-0c0ffee1-1111-4111-8111-111111111111");
  EXPECT_EQ(samples[1].gpu.pci_bus_id, "00000000:3B:00.0");
  EXPECT_EQ(samples[1].gpu.device, "nvidia1");
}

TEST(NvmlSample, CountersAdvanceByTheStubsStep) {
  auto nvml = open_or_fail(INFERPERF_NVML_STUB);
  ASSERT_NE(nvml, nullptr);
  const auto first = nvml->sample(1'000);
  const auto second = nvml->sample(2'000);
  ASSERT_EQ(first.size(), 2U);
  ASSERT_EQ(second.size(), 2U);
  EXPECT_EQ(second[0].mono_ns, 2'000);

  // Energy: +250'000'000 mJ per read on both GPUs; violation: +20'000 ns on GPU 0, +40'000 on 1.
  EXPECT_EQ(second[0][GpuMetric::kEnergyConsumption], v(5.25));
  EXPECT_EQ(second[1][GpuMetric::kEnergyConsumption], v(7.25));
  EXPECT_EQ(*second[0][GpuMetric::kEnergyConsumption] - *first[0][GpuMetric::kEnergyConsumption],
            0.25);
  EXPECT_EQ(second[0][GpuMetric::kPowerViolation], v(1520.0));
  EXPECT_EQ(second[1][GpuMetric::kPowerViolation], v(40.0));
  EXPECT_EQ(*second[0][GpuMetric::kPowerViolation] - *first[0][GpuMetric::kPowerViolation], 20.0);
  EXPECT_EQ(*second[1][GpuMetric::kPowerViolation] - *first[1][GpuMetric::kPowerViolation], 40.0);

  // Gauges hold still.
  EXPECT_EQ(second[0][GpuMetric::kPowerUsage], first[0][GpuMetric::kPowerUsage]);
  EXPECT_EQ(second[1][GpuMetric::kMemoryUsed], first[1][GpuMetric::kMemoryUsed]);
}

TEST(NvmlSample, OlderLibraryLeavesItsMissingQueriesEmpty) {
  auto nvml = open_or_fail(INFERPERF_NVML_STUB_OLD);
  ASSERT_NE(nvml, nullptr);
  const auto samples = nvml->sample(1);
  ASSERT_EQ(samples.size(), 2U);
  for (const GpuSample& s : samples) {
    EXPECT_EQ(s[GpuMetric::kEnergyConsumption], std::nullopt);
    EXPECT_EQ(s[GpuMetric::kJpegUtilization], std::nullopt);
    EXPECT_TRUE(s[GpuMetric::kPowerUsage].has_value());
    EXPECT_TRUE(s[GpuMetric::kPowerViolation].has_value());
  }
  EXPECT_EQ(samples[0][GpuMetric::kMemoryUsed], v(42.0));
  EXPECT_EQ(samples[1].gpu.device, "nvidia1");
}

TEST(NvmlLifetime, EveryInitIsMatchedByAShutdown) {
  // Keep the stub loaded across the sources below so its state can be read in between.
  void* stub = ::dlopen(INFERPERF_NVML_STUB, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(stub, nullptr) << ::dlerror();
  auto init_count = reinterpret_cast<int (*)()>(::dlsym(stub, "nvml_stub_init_count"));
  ASSERT_NE(init_count, nullptr);
  {
    auto first = open_or_fail(INFERPERF_NVML_STUB);
    auto second = open_or_fail(INFERPERF_NVML_STUB);
    ASSERT_NE(first, nullptr);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(init_count(), 2);
    second.reset();
    EXPECT_EQ(init_count(), 1);
    EXPECT_EQ(first->sample(0).size(), 2U);
  }
  EXPECT_EQ(init_count(), 0);
  ::dlclose(stub);
}

}  // namespace
