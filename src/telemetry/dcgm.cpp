#include "telemetry/dcgm.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string_view>

namespace inferperf::telemetry {

namespace {

struct FieldMap {
  std::string_view field;
  GpuMetric metric;
  double scale;  // DCGM unit -> AIPerf unit
};

constexpr FieldMap kFields[] = {
    {"DCGM_FI_DEV_POWER_USAGE", GpuMetric::kPowerUsage, 1.0},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", GpuMetric::kEnergyConsumption, 1e-9},  // mJ -> MJ
    {"DCGM_FI_DEV_GPU_UTIL", GpuMetric::kGpuUtilization, 1.0},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", GpuMetric::kMemUtilization, 1.0},
    {"DCGM_FI_DEV_FB_USED", GpuMetric::kMemoryUsed, 1.048576e-3},  // MiB -> GB
    {"DCGM_FI_DEV_GPU_TEMP", GpuMetric::kTemperature, 1.0},
    {"DCGM_FI_DEV_ENC_UTIL", GpuMetric::kEncoderUtilization, 1.0},
    {"DCGM_FI_DEV_DEC_UTIL", GpuMetric::kDecoderUtilization, 1.0},
    {"DCGM_FI_PROF_SM_ACTIVE", GpuMetric::kSmUtilization, 100.0},  // ratio -> %
    {"DCGM_FI_DEV_XID_ERRORS", GpuMetric::kXidErrors, 1.0},
    {"DCGM_FI_DEV_POWER_VIOLATION", GpuMetric::kPowerViolation, 1e-3},  // ns -> µs
};

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::string label(const Labels& labels, std::string_view key) {
  for (const auto& [k, v] : labels)
    if (k == key) return v;
  return {};
}

std::string tag_of(std::string_view field) {
  for (std::string_view prefix : {"DCGM_FI_DEV_", "DCGM_FI_PROF_", "DCGM_FI_"}) {
    if (field.substr(0, prefix.size()) == prefix) {
      field.remove_prefix(prefix.size());
      break;
    }
  }
  std::string tag(field);
  for (auto& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return tag;
}

}  // namespace

core::Result<std::vector<CustomGpuField>> load_custom_gpu_fields(const std::string& path) {
  std::ifstream in(path);
  if (!in) return core::Error{core::ErrorKind::kInput, "cannot read custom GPU metrics file", path};
  std::vector<CustomGpuField> out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (int k = 0; k < 2; ++k) {
      const auto comma = t.find(',', start);
      if (comma == std::string::npos) break;
      cells.push_back(trim(std::string_view(t).substr(start, comma - start)));
      start = comma + 1;
    }
    cells.push_back(trim(std::string_view(t).substr(start)));
    if (cells.size() < 3) {
      return core::Error{core::ErrorKind::kInput,
                         "expected 'DCGM_FIELD, type, help' (3 comma-separated cells)", path,
                         line_no};
    }
    if (cells[0].rfind("DCGM_FI_", 0) != 0) {
      return core::Error{core::ErrorKind::kInput,
                         "'" + cells[0] + "' is not a DCGM field name (DCGM_FI_...)", path, line_no,
                         "DCGM_FIELD"};
    }
    if (cells[1] != "gauge" && cells[1] != "counter") {
      return core::Error{core::ErrorKind::kInput,
                         "type '" + cells[1] + "' must be gauge or counter", path, line_no, "type"};
    }
    const bool mapped = std::any_of(std::begin(kFields), std::end(kFields),
                                    [&](const FieldMap& f) { return f.field == cells[0]; });
    if (mapped) continue;  // already collected under its AIPerf name
    out.push_back(CustomGpuField{cells[0], tag_of(cells[0]), cells[2], cells[1] == "counter"});
  }
  return out;
}

std::vector<GpuSample> gpu_samples_from_page(const Page& page, const std::string& source,
                                             std::int64_t mono_ns,
                                             const std::vector<CustomGpuField>& custom) {
  std::vector<GpuSample> out;
  auto gpu_for = [&](const Labels& labels) -> GpuSample& {
    const std::string index = label(labels, "gpu");
    const std::string uuid = label(labels, "UUID");
    for (auto& g : out) {
      if (!index.empty() ? std::to_string(g.gpu.index) == index : g.gpu.uuid == uuid) return g;
    }
    GpuSample g;
    g.mono_ns = mono_ns;
    g.source = source;
    try {
      g.gpu.index = index.empty() ? static_cast<int>(out.size()) : std::stoi(index);
    } catch (const std::exception&) {
      g.gpu.index = static_cast<int>(out.size());
    }
    g.gpu.uuid = uuid;
    g.gpu.model_name = label(labels, "modelName");
    g.gpu.pci_bus_id = label(labels, "pci_bus_id");
    g.gpu.device = label(labels, "device");
    g.gpu.hostname = label(labels, "Hostname");
    g.gpu.namespace_ = label(labels, "namespace");
    g.gpu.pod = label(labels, "pod");
    out.push_back(std::move(g));
    return out.back();
  };
  for (const auto& family : page.families) {
    const FieldMap* mapped = nullptr;
    for (const auto& f : kFields)
      if (f.field == family.name) mapped = &f;
    const CustomGpuField* extra = nullptr;
    if (!mapped) {
      for (const auto& c : custom)
        if (c.field == family.name) extra = &c;
      if (!extra) continue;
    }
    for (const auto& s : family.samples) {
      if (s.name != family.name) continue;
      GpuSample& g = gpu_for(s.labels);
      if (mapped) {
        g[mapped->metric] = s.value * mapped->scale;
      } else {
        g.custom.emplace_back(extra->tag, s.value);
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const GpuSample& a, const GpuSample& b) { return a.gpu.index < b.gpu.index; });
  return out;
}

}  // namespace inferperf::telemetry
