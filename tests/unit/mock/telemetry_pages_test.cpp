// The mock server's telemetry pages (apps/mock-server/served_stats, metric_pages, fake_dcgm;
// described in docs/mock-server.md): Prometheus text format, values that follow what was served,
// and the fake DCGM readings' mapping from load and their evolution in time.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "content.hpp"
#include "fake_dcgm.hpp"
#include "metric_pages.hpp"
#include "served_stats.hpp"

namespace {

using namespace inferperf::mock;
using std::chrono::milliseconds;
using std::chrono::seconds;

// ---- a small Prometheus text parser, strict enough to catch format mistakes ----

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

struct Family {
  std::string type;
  std::string help;
  std::vector<Sample> samples;
};

struct Page {
  std::map<std::string, Family> families;
  std::vector<std::string> order;  // family names as they appear
  const Family& at(const std::string& name) const {
    auto it = families.find(name);
    if (it == families.end()) throw std::runtime_error("no family " + name);
    return it->second;
  }
  // The value of the one sample `name` whose labels include `match`.
  double value(const std::string& family, const std::string& name,
               const std::map<std::string, std::string>& match = {}) const {
    std::optional<double> found;
    for (const auto& s : at(family).samples) {
      if (s.name != name) continue;
      bool ok = true;
      for (const auto& [k, v] : match) {
        auto it = s.labels.find(k);
        ok = ok && it != s.labels.end() && it->second == v;
      }
      if (!ok) continue;
      if (found) throw std::runtime_error("ambiguous sample " + name);
      found = s.value;
    }
    if (!found) throw std::runtime_error("no sample " + name);
    return *found;
  }
};

double parse_value(const std::string& v) {
  if (v == "+Inf") return INFINITY;
  if (v == "-Inf") return -INFINITY;
  std::size_t used = 0;
  const double d = std::stod(v, &used);
  if (used != v.size()) throw std::runtime_error("bad value " + v);
  return d;
}

// The family a sample belongs to: its own name, or the name less a histogram or `_created`
// suffix (a counter family is named with `_total`, its `_created` sample without).
std::string family_of(const std::string& name, const std::map<std::string, Family>& families) {
  if (families.count(name)) return name;
  for (const std::string suffix : {"_bucket", "_sum", "_count", "_created"}) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      const std::string base = name.substr(0, name.size() - suffix.size());
      if (families.count(base)) return base;
      if (suffix == "_created" && families.count(base + "_total")) return base + "_total";
    }
  }
  throw std::runtime_error("sample without a family: " + name);
}

Page parse_page(const std::string& text) {
  Page page;
  std::istringstream in(text);
  std::string line;
  std::string pending_help_name, pending_help;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.rfind("# HELP ", 0) == 0) {
      const auto sp = line.find(' ', 7);
      pending_help_name = line.substr(7, sp - 7);
      pending_help = line.substr(sp + 1);
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      const auto sp = line.find(' ', 7);
      const std::string name = line.substr(7, sp - 7);
      if (name != pending_help_name) throw std::runtime_error("TYPE without HELP: " + name);
      if (page.families.count(name)) throw std::runtime_error("family twice: " + name);
      page.families[name] = Family{line.substr(sp + 1), pending_help, {}};
      page.order.push_back(name);
      continue;
    }
    if (line[0] == '#') throw std::runtime_error("unexpected comment: " + line);
    Sample s;
    std::size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    s.name = line.substr(0, i);
    if (i < line.size() && line[i] == '{') {
      ++i;
      while (line.at(i) != '}') {
        const auto eq = line.find('=', i);
        const std::string key = line.substr(i, eq - i);
        if (line.at(eq + 1) != '"') throw std::runtime_error("unquoted label: " + line);
        std::string val;
        std::size_t j = eq + 2;
        for (; line.at(j) != '"'; ++j) {
          if (line[j] == '\\') {
            const char e = line.at(++j);
            if (e == 'n') {
              val += '\n';
            } else if (e == '\\' || e == '"') {
              val += e;
            } else {
              throw std::runtime_error("bad escape: " + line);
            }
          } else {
            val += line[j];
          }
        }
        if (s.labels.count(key)) throw std::runtime_error("label twice: " + line);
        s.labels[key] = val;
        i = j + 1;
        if (line.at(i) == ',') ++i;
      }
      ++i;
    }
    if (line.at(i) != ' ') throw std::runtime_error("no value: " + line);
    s.value = parse_value(line.substr(i + 1));
    const std::string fam = family_of(s.name, page.families);
    if (fam != page.order.back()) throw std::runtime_error("sample outside its family: " + line);
    page.families[fam].samples.push_back(std::move(s));
  }
  return page;
}

// Histogram checks: per label set, buckets cumulative and ending in +Inf = _count.
void expect_histograms_consistent(const Page& page) {
  for (const auto& [name, fam] : page.families) {
    if (fam.type != "histogram") continue;
    double prev = -1;
    double prev_le = -INFINITY;
    bool saw_inf = false;
    double inf_count = -1;
    for (const auto& s : fam.samples) {
      if (s.name == name + "_bucket") {
        const double le = parse_value(s.labels.at("le"));
        EXPECT_GT(le, prev_le) << name << " bounds ascend";
        EXPECT_GE(s.value, prev) << name << " buckets are cumulative";
        prev = s.value;
        prev_le = le;
        if (std::isinf(le)) {
          saw_inf = true;
          inf_count = s.value;
        }
      } else if (s.name == name + "_count") {
        EXPECT_TRUE(saw_inf) << name << " has le=+Inf before _count";
        EXPECT_EQ(s.value, inf_count) << name;
      }
    }
    EXPECT_TRUE(saw_inf) << name;
  }
}

// ---- value formatting and escaping ----

TEST(PromFormat, PythonFloatsAsPrometheusClientWritesThem) {
  EXPECT_EQ(python_float(0), "0.0");
  EXPECT_EQ(python_float(1), "1.0");
  EXPECT_EQ(python_float(0.005), "0.005");
  EXPECT_EQ(python_float(2560), "2560.0");
  EXPECT_EQ(python_float(123456), "123456.0");
  EXPECT_EQ(python_float(1234567), "1.234567e+06");
  EXPECT_EQ(python_float(1734567890.5), "1.7345678905e+09");
  EXPECT_EQ(python_float(10000000), "1e+07");
  EXPECT_EQ(python_float(0.00001), "1e-05");
  EXPECT_EQ(python_float(-2.5), "-2.5");
  EXPECT_EQ(python_float(INFINITY), "+Inf");
  EXPECT_EQ(plain_float(1), "1");
  EXPECT_EQ(plain_float(0.0025), "0.0025");
  EXPECT_EQ(plain_float(5.3741e-05), "0.000053741");
  EXPECT_EQ(plain_float(1e20), "100000000000000000000");
  EXPECT_EQ(plain_float(INFINITY), "+Inf");
}

TEST(PromFormat, LabelEscaping) {
  EXPECT_EQ(prom_escape_label(R"(a"b\c)"), R"(a\"b\\c)");
  EXPECT_EQ(prom_escape_label("x\ny"), "x\\ny");
  EXPECT_EQ(prom_escape_help("p\\q\nr\"s"), "p\\\\q\\nr\"s");
}

// ---- distributions and the token rate ----

TEST(Distribution, CumulativeCountsAreExactForEveryLayout) {
  const std::vector<double> a = {0.1, 1.0}, b = {0.5, 1.0, 2.0};
  Distribution dist({&a, &b});
  for (const double v : {0.05, 0.1, 0.3, 0.5, 0.7, 1.0, 1.5, 3.0}) dist.observe(v);
  const auto& s = dist.snapshot();
  EXPECT_EQ(s.bounds, (std::vector<double>{0.1, 0.5, 1.0, 2.0}));
  EXPECT_EQ(s.at_most(0.1), 2U);  // le is inclusive
  EXPECT_EQ(s.at_most(0.5), 4U);
  EXPECT_EQ(s.at_most(1.0), 6U);
  EXPECT_EQ(s.at_most(2.0), 7U);
  EXPECT_EQ(s.at_most(INFINITY), 8U);
  EXPECT_EQ(s.count, 8U);
  EXPECT_DOUBLE_EQ(s.sum, 7.15);
}

TEST(TokenRateWindow, RateOverTheWindowAndLoadAgainstThePeak) {
  const auto t0 = MockClock::time_point{} + seconds(1000);
  TokenRateWindow w(1.0);
  EXPECT_EQ(w.load(t0, 100), 0.0);
  w.add(300, t0);
  w.add(200, t0 + milliseconds(500));
  EXPECT_NEAR(w.rate(t0 + milliseconds(600)), 500.0, 1e-9);
  EXPECT_NEAR(w.rate(t0 + milliseconds(1400)), 200.0, 1e-9) << "the first batch left the window";
  EXPECT_EQ(w.rate(t0 + seconds(3)), 0.0);

  TokenRateWindow v(1.0);
  v.add(50, t0);
  EXPECT_NEAR(v.load(t0 + milliseconds(100), 100), 0.5, 1e-9) << "below the floor";
  v.add(950, t0 + milliseconds(200));
  EXPECT_NEAR(v.load(t0 + milliseconds(300), 100), 1.0, 1e-9) << "the new peak";
  EXPECT_NEAR(v.load(t0 + milliseconds(1100), 100), 0.95, 1e-9) << "950 of the 1000 peak";
}

// ---- engine pages from served requests ----

struct Served {
  ServedStats stats{1.0, MockClock::time_point{} + seconds(100)};
  MockClock::time_point t0 = MockClock::time_point{} + seconds(100);
};

// A streamed request: TTFT ttft_ms, then `tokens` more events itl_ms apart.
void stream_request(ServedStats& stats, MockClock::time_point start, int ttft_ms, int itl_ms,
                    int prompt, int tokens, const char* finish) {
  RequestTrace t(stats, true, true, prompt, 100, start);
  for (int i = 0; i < tokens; ++i) t.event(1, 40, start + milliseconds(ttft_ms + i * itl_ms));
  if (finish) t.complete(finish);
}

TEST(EnginePages, VllmFollowsServedRequests) {
  Served s;
  stream_request(s.stats, s.t0, 15, 5, 10, 4, "length");  // TTFT 15 ms, 3 gaps of 5 ms
  stream_request(s.stats, s.t0, 30, 20, 20, 3, "stop");   // TTFT 30 ms, 2 gaps of 20 ms
  {
    RequestTrace whole(s.stats, false, false, 7, 50, s.t0);
    whole.whole(5, 300, s.t0 + milliseconds(500), s.t0 + milliseconds(540));
    whole.complete("length");
  }
  stream_request(s.stats, s.t0, 10, 5, 8, 2, nullptr);      // aborted after two tokens
  RequestTrace running(s.stats, true, true, 32, 10, s.t0);  // still waiting for its first token

  const auto snap = s.stats.snapshot(s.t0 + seconds(2));
  const Page p = parse_page(vllm_metrics_page(snap, {"mock-model", 1.7e9}));
  const std::map<std::string, std::string> model = {{"model_name", "mock-model"}, {"engine", "0"}};
  EXPECT_EQ(p.at("vllm:num_requests_running").type, "gauge");
  EXPECT_EQ(p.value("vllm:num_requests_running", "vllm:num_requests_running", model), 1);
  EXPECT_EQ(p.value("vllm:prompt_tokens_total", "vllm:prompt_tokens_total", model),
            10 + 20 + 7 + 8);
  EXPECT_EQ(p.value("vllm:generation_tokens_total", "vllm:generation_tokens_total"), 4 + 3 + 5 + 2);
  EXPECT_EQ(p.at("vllm:generation_tokens_total").type, "counter");
  EXPECT_EQ(p.value("vllm:generation_tokens_total", "vllm:generation_tokens_created"), 1.7e9);
  const auto success = [&](const char* reason) {
    return p.value("vllm:request_success_total", "vllm:request_success_total",
                   {{"finished_reason", reason}});
  };
  EXPECT_EQ(success("length"), 2);
  EXPECT_EQ(success("stop"), 1);
  EXPECT_EQ(success("abort"), 1);
  // KV cache: the running request's 32 prompt tokens of 8192 × 16.
  EXPECT_DOUBLE_EQ(p.value("vllm:kv_cache_usage_perc", "vllm:kv_cache_usage_perc"),
                   32.0 / (8192 * 16));

  const std::string ttft = "vllm:time_to_first_token_seconds";
  EXPECT_EQ(p.at(ttft).type, "histogram");
  EXPECT_EQ(p.value(ttft, ttft + "_count"), 4) << "the aborted request had its first token";
  EXPECT_NEAR(p.value(ttft, ttft + "_sum"), 0.015 + 0.030 + 0.5 + 0.010, 1e-12);
  EXPECT_EQ(p.value(ttft, ttft + "_bucket", {{"le", "0.01"}}), 1);
  EXPECT_EQ(p.value(ttft, ttft + "_bucket", {{"le", "0.02"}}), 2);
  EXPECT_EQ(p.value(ttft, ttft + "_bucket", {{"le", "0.04"}}), 3);
  EXPECT_EQ(p.value(ttft, ttft + "_bucket", {{"le", "0.5"}}), 4);
  EXPECT_EQ(p.value(ttft, ttft + "_bucket", {{"le", "+Inf"}}), 4);

  // Inter-token gaps: 3 × 5 ms, 2 × 20 ms, 4 × 10 ms (whole body: 40 ms over 4 gaps), 1 × 5 ms.
  const std::string itl = "vllm:inter_token_latency_seconds";
  EXPECT_EQ(p.value(itl, itl + "_count"), 10);
  EXPECT_NEAR(p.value(itl, itl + "_sum"), 0.015 + 0.040 + 0.040 + 0.005, 1e-12);
  EXPECT_EQ(p.value(itl, itl + "_bucket", {{"le", "0.01"}}), 8);
  EXPECT_EQ(p.value(itl, itl + "_bucket", {{"le", "0.025"}}), 10);

  const std::string e2e = "vllm:e2e_request_latency_seconds";
  EXPECT_EQ(p.value(e2e, e2e + "_count"), 3) << "finished requests only";
  EXPECT_NEAR(p.value(e2e, e2e + "_sum"), 0.030 + 0.070 + 0.540, 1e-12);
  const std::string gen = "vllm:request_generation_tokens";
  EXPECT_EQ(p.value(gen, gen + "_bucket", {{"le", "2.0"}}), 0);
  EXPECT_EQ(p.value(gen, gen + "_bucket", {{"le", "5.0"}}), 3);
  EXPECT_EQ(p.value(gen, gen + "_sum"), 12);

  EXPECT_EQ(p.value("vllm:cache_config_info", "vllm:cache_config_info",
                    {{"block_size", "16"}, {"num_gpu_blocks", "8192"}}),
            1);
  expect_histograms_consistent(p);
}

TEST(EnginePages, EveryPageParsesAndCarriesEscapedLabels) {
  Served s;
  stream_request(s.stats, s.t0, 20, 5, 12, 6, "stop");
  const auto snap = s.stats.snapshot(s.t0 + seconds(1));
  const EnginePageInfo info{R"(org/"quoted"\model)", 1.7e9};
  const std::vector<std::pair<std::string, std::string>> pages = {
      {"vllm", vllm_metrics_page(snap, info)},
      {"sglang", sglang_metrics_page(snap, info)},
      {"trtllm", trtllm_metrics_page(snap, info)},
      {"dynamo_frontend", dynamo_frontend_metrics_page(snap, info)},
      {"dynamo_prefill", dynamo_component_metrics_page(snap, info, true)},
      {"dynamo_decode", dynamo_component_metrics_page(snap, info, false)},
      {"mock", mock_histograms_page(snap)},
  };
  for (const auto& [engine, text] : pages) {
    SCOPED_TRACE(engine);
    Page p;
    ASSERT_NO_THROW(p = parse_page(text)) << text;
    expect_histograms_consistent(p);
    for (const auto& [name, fam] : p.families) {
      EXPECT_FALSE(fam.help.empty()) << name;
      EXPECT_TRUE(fam.type == "gauge" || fam.type == "counter" || fam.type == "histogram") << name;
      if (fam.type == "counter") {
        EXPECT_TRUE(name.ends_with("_total")) << name;
      }
    }
    if (engine == "mock") continue;
    const auto& info_sample = p.at("inferperf_mock_model_info").samples.at(0);
    EXPECT_EQ(info_sample.labels.at("model_name"), info.model_name);
    EXPECT_EQ(info_sample.labels.at("weights_path"), R"(C:\models\"mock"\weights)");
    EXPECT_EQ(info_sample.labels.at("note"), "served by inferperf-mock-server\nnot a real engine");
    EXPECT_EQ(info_sample.value, 1);
  }
  const Page sg = parse_page(pages[1].second);
  EXPECT_EQ(sg.value("sglang:generation_tokens_total", "sglang:generation_tokens_total"), 6);
  EXPECT_EQ(sg.value("sglang:time_to_first_token_seconds",
                     "sglang:time_to_first_token_seconds_bucket", {{"le", "0.02"}}),
            1);
  const Page trt = parse_page(pages[2].second);
  EXPECT_EQ(trt.value("trtllm_request_success_total", "trtllm_request_success_total",
                      {{"finished_reason", "stop"}, {"engine_type", "trtllm"}}),
            1);
  const Page fe = parse_page(pages[3].second);
  EXPECT_EQ(
      fe.value(
          "dynamo_frontend_requests_total", "dynamo_frontend_requests_total",
          {{"endpoint", "chat_completions"}, {"request_type", "stream"}, {"status", "success"}}),
      1);
  EXPECT_EQ(fe.value("dynamo_frontend_output_tokens_total", "dynamo_frontend_output_tokens_total"),
            6);
  EXPECT_EQ(fe.value("dynamo_frontend_inter_token_latency_seconds",
                     "dynamo_frontend_inter_token_latency_seconds_count"),
            5);
  // Rust-client style: label names sorted, integral values without ".0".
  EXPECT_NE(pages[3].second.find(R"(dynamo_frontend_requests_total{endpoint="chat_completions",)"
                                 R"(model="org/\"quoted\"\\model",request_type="stream",)"
                                 R"(status="success"} 1)"),
            std::string::npos)
      << pages[3].second;
  const Page prefill = parse_page(pages[4].second);
  EXPECT_EQ(prefill.value("dynamo_component_request_duration_seconds",
                          "dynamo_component_request_duration_seconds_sum"),
            0.020);
  const Page decode = parse_page(pages[5].second);
  EXPECT_NEAR(decode.value("dynamo_component_request_duration_seconds",
                           "dynamo_component_request_duration_seconds_sum"),
              0.025, 1e-12);
  const Page mock = parse_page(pages[6].second);
  EXPECT_EQ(mock.value("inferperf_mock_output_tokens_per_request",
                       "inferperf_mock_output_tokens_per_request_sum"),
            6);
}

TEST(EnginePages, RejectedAndAbortedRequestsAreErrors) {
  Served s;
  s.stats.rejected(false, false);
  { RequestTrace gone(s.stats, true, true, 5, 10, s.t0); }  // ended before its first token
  const auto snap = s.stats.snapshot(s.t0 + seconds(1));
  EXPECT_EQ(snap.running, 0);
  EXPECT_EQ(snap.awaiting_first, 0);
  EXPECT_EQ(snap.kv_tokens, 0);
  const EnginePageInfo info{"m", 0};
  const Page fe = parse_page(dynamo_frontend_metrics_page(snap, info));
  EXPECT_EQ(fe.value("dynamo_frontend_requests_total", "dynamo_frontend_requests_total",
                     {{"endpoint", "completions"}, {"request_type", "unary"}}),
            1);
  EXPECT_EQ(fe.value("dynamo_frontend_requests_total", "dynamo_frontend_requests_total",
                     {{"endpoint", "chat_completions"}, {"request_type", "stream"}}),
            1);
  const Page prefill = parse_page(dynamo_component_metrics_page(snap, info, true));
  EXPECT_EQ(prefill.value("dynamo_component_errors_total", "dynamo_component_errors_total"), 1);
  const Page v = parse_page(vllm_metrics_page(snap, info));
  EXPECT_EQ(v.value("vllm:request_success_total", "vllm:request_success_total",
                    {{"finished_reason", "abort"}}),
            1);
  EXPECT_EQ(v.value("vllm:time_to_first_token_seconds", "vllm:time_to_first_token_seconds_count"),
            0);
}

// ---- fake DCGM ----

TEST(FakeDcgm, ProfilesAreComplete) {
  for (const char* key : {"rtx6000", "a100", "h100", "h100-sxm", "h200", "b200", "gb200"}) {
    const GpuProfile* p = find_gpu_profile(key);
    ASSERT_NE(p, nullptr) << key;
    EXPECT_TRUE(p->model_name.starts_with("NVIDIA ")) << key;
    EXPECT_LT(p->idle_power_w, p->max_power_w) << key;
    EXPECT_LT(p->idle_temp_c, p->max_temp_c) << key;
    EXPECT_GT(p->memory_mib, 40000) << key;
  }
  EXPECT_EQ(find_gpu_profile("h200")->model_name, "NVIDIA H200");
  EXPECT_EQ(find_gpu_profile("v100"), nullptr);
}

TEST(FakeDcgm, LoadMapsToReadings) {
  const GpuProfile& p = *find_gpu_profile("h200");
  const auto idle = gpu_reading(p, 0.0), half = gpu_reading(p, 0.5), full = gpu_reading(p, 1.0);
  EXPECT_DOUBLE_EQ(idle.gpu_util_pct, 5);
  EXPECT_DOUBLE_EQ(half.gpu_util_pct, 52.5);
  EXPECT_DOUBLE_EQ(full.gpu_util_pct, 100);
  EXPECT_DOUBLE_EQ(idle.power_w, p.idle_power_w);
  EXPECT_DOUBLE_EQ(half.power_w, (p.idle_power_w + p.max_power_w) / 2);
  EXPECT_DOUBLE_EQ(full.power_w, p.max_power_w);
  EXPECT_DOUBLE_EQ(full.temp_c, p.max_temp_c);
  EXPECT_DOUBLE_EQ(idle.fb_used_mib, 0.10 * p.memory_mib);
  EXPECT_DOUBLE_EQ(full.fb_used_mib, 0.85 * p.memory_mib);
  EXPECT_DOUBLE_EQ(full.fb_used_mib + full.fb_free_mib, p.memory_mib);
  EXPECT_DOUBLE_EQ(half.mem_copy_util_pct, 25);
  EXPECT_DOUBLE_EQ(full.sm_clock_mhz, p.sm_clock_max_mhz);
  EXPECT_DOUBLE_EQ(gpu_reading(p, 7.0).gpu_util_pct, 100) << "load is clamped";
}

const std::map<std::string, std::string>& gpu(int i) {
  static const std::map<std::string, std::string> g0 = {{"gpu", "0"}}, g1 = {{"gpu", "1"}},
                                                  g2 = {{"gpu", "2"}};
  return i == 0 ? g0 : i == 1 ? g1 : g2;
}

TEST(FakeDcgm, ExporterFormatAndLabels) {
  const auto t0 = MockClock::time_point{} + seconds(50);
  FakeDcgm dcgm({find_gpu_profile("h200"), 3, "node-\"a\"", 42}, t0);
  const std::string text = dcgm.scrape(2, 0.0, t0 + seconds(1));
  const Page p = parse_page(text);
  const std::vector<std::string> expected = {"DCGM_FI_DEV_SM_CLOCK",
                                             "DCGM_FI_DEV_MEM_CLOCK",
                                             "DCGM_FI_DEV_GPU_TEMP",
                                             "DCGM_FI_DEV_POWER_USAGE",
                                             "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                                             "DCGM_FI_DEV_GPU_UTIL",
                                             "DCGM_FI_DEV_MEM_COPY_UTIL",
                                             "DCGM_FI_DEV_ENC_UTIL",
                                             "DCGM_FI_DEV_DEC_UTIL",
                                             "DCGM_FI_DEV_XID_ERRORS",
                                             "DCGM_FI_DEV_FB_FREE",
                                             "DCGM_FI_DEV_FB_USED",
                                             "DCGM_FI_DEV_POWER_VIOLATION",
                                             "DCGM_FI_PROF_SM_ACTIVE"};
  EXPECT_EQ(p.order, expected);
  EXPECT_EQ(p.at("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION").type, "counter");
  EXPECT_EQ(p.at("DCGM_FI_DEV_POWER_VIOLATION").type, "counter");
  EXPECT_EQ(p.at("DCGM_FI_DEV_GPU_UTIL").type, "gauge");
  const std::regex uuid("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  for (const auto& [name, fam] : p.families) {
    ASSERT_EQ(fam.samples.size(), 3U) << name;
    for (int g = 0; g < 3; ++g) {
      const auto& l = fam.samples[static_cast<std::size_t>(g)].labels;
      EXPECT_EQ(l.at("gpu"), std::to_string(g));
      EXPECT_TRUE(std::regex_match(l.at("UUID"), uuid)) << l.at("UUID");
      EXPECT_EQ(l.at("UUID"), fake_gpu_uuid(2, g));
      EXPECT_EQ(l.at("device"), "nvidia" + std::to_string(g));
      EXPECT_EQ(l.at("modelName"), "NVIDIA H200");
      EXPECT_EQ(l.at("Hostname"), "node-\"a\"");
      EXPECT_TRUE(std::regex_match(l.at("pci_bus_id"), std::regex("00000000:[0-9A-F]{2}:00\\.0")));
    }
  }
  // Exactly the exporter's sample layout, label order included.
  EXPECT_NE(text.find("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"" + fake_gpu_uuid(2, 0) +
                      "\",pci_bus_id=\"00000000:18:00.0\",device=\"nvidia0\","
                      "modelName=\"NVIDIA H200\",Hostname=\"node-\\\"a\\\"\"} 5\n"),
            std::string::npos)
      << text;
  EXPECT_NE(fake_gpu_uuid(1, 0), fake_gpu_uuid(2, 0));
  EXPECT_NE(fake_gpu_uuid(1, 0), fake_gpu_uuid(1, 1));
  EXPECT_EQ(fake_gpu_uuid(1, 1), fake_gpu_uuid(1, 1));
  // The same seed and times give the same page.
  FakeDcgm again({find_gpu_profile("h200"), 3, "node-\"a\"", 42}, t0);
  EXPECT_EQ(again.scrape(2, 0.0, t0 + seconds(1)), text);
}

TEST(FakeDcgm, ReadingsFollowLoadAndCountersAccumulate) {
  const GpuProfile& h = *find_gpu_profile("h100-sxm");
  const auto t0 = MockClock::time_point{} + seconds(50);
  FakeDcgm dcgm({&h, 2, "localhost", 7}, t0);
  const Page idle = parse_page(dcgm.scrape(1, 0.0, t0 + seconds(10)));
  const Page busy1 = parse_page(dcgm.scrape(1, 1.0, t0 + seconds(20)));
  const Page busy2 = parse_page(dcgm.scrape(1, 1.0, t0 + seconds(30)));
  const Page half = parse_page(dcgm.scrape(1, 0.5, t0 + seconds(40)));
  for (int g = 0; g < 2; ++g) {
    SCOPED_TRACE(g);
    const auto v = [&](const Page& p, const char* fam) { return p.value(fam, fam, gpu(g)); };
    EXPECT_EQ(v(idle, "DCGM_FI_DEV_GPU_UTIL"), 5);
    EXPECT_GE(v(busy2, "DCGM_FI_DEV_GPU_UTIL"), 98);
    EXPECT_NEAR(v(half, "DCGM_FI_DEV_GPU_UTIL"), 52.5, 2);
    EXPECT_NEAR(v(idle, "DCGM_FI_DEV_POWER_USAGE"), h.idle_power_w, 0.021 * h.idle_power_w);
    EXPECT_GE(v(busy2, "DCGM_FI_DEV_POWER_USAGE"), 0.97 * h.max_power_w);
    EXPECT_LE(v(busy2, "DCGM_FI_DEV_POWER_USAGE"), h.max_power_w);
    EXPECT_NEAR(v(idle, "DCGM_FI_DEV_FB_USED"), 0.10 * h.memory_mib, 0.021 * 0.10 * h.memory_mib);
    EXPECT_NEAR(v(busy2, "DCGM_FI_DEV_FB_USED"), 0.85 * h.memory_mib, 0.021 * 0.85 * h.memory_mib);
    EXPECT_NEAR(v(busy2, "DCGM_FI_DEV_FB_USED") + v(busy2, "DCGM_FI_DEV_FB_FREE"), h.memory_mib, 1);
    EXPECT_EQ(v(idle, "DCGM_FI_DEV_MEM_COPY_UTIL"), 0);
    EXPECT_NEAR(v(half, "DCGM_FI_DEV_MEM_COPY_UTIL"), 25, 1);
    EXPECT_EQ(v(idle, "DCGM_FI_PROF_SM_ACTIVE"), 0);
    EXPECT_NEAR(v(busy2, "DCGM_FI_PROF_SM_ACTIVE"), 0.95, 0.03);
    EXPECT_EQ(v(busy2, "DCGM_FI_DEV_XID_ERRORS"), 0);
    EXPECT_EQ(v(busy2, "DCGM_FI_DEV_ENC_UTIL"), 0);
    // Temperature lags the load: hotter after 20 s busy than after the first 10 s, never above max.
    EXPECT_NEAR(v(idle, "DCGM_FI_DEV_GPU_TEMP"), h.idle_temp_c, 1);
    EXPECT_GT(v(busy1, "DCGM_FI_DEV_GPU_TEMP"), h.idle_temp_c + 10);
    EXPECT_GE(v(busy2, "DCGM_FI_DEV_GPU_TEMP"), v(busy1, "DCGM_FI_DEV_GPU_TEMP"));
    EXPECT_LE(v(busy2, "DCGM_FI_DEV_GPU_TEMP"), h.max_temp_c);

    // Energy: monotonic, and each step is the trapezoid of the reported powers (mJ = W·s·1000).
    const char* e = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
    const char* w = "DCGM_FI_DEV_POWER_USAGE";
    const std::vector<const Page*> seq = {&idle, &busy1, &busy2, &half};
    for (std::size_t i = 1; i < seq.size(); ++i) {
      const double de = v(*seq[i], e) - v(*seq[i - 1], e);
      EXPECT_GT(de, 0);
      EXPECT_NEAR(de, (v(*seq[i], w) + v(*seq[i - 1], w)) / 2 * 10 * 1000, 1.5);
    }
    // Power violation: only while power is above 95 % of the maximum (the two busy scrapes).
    const char* pv = "DCGM_FI_DEV_POWER_VIOLATION";
    EXPECT_EQ(v(idle, pv), 0);
    EXPECT_EQ(v(busy1, pv), 10e9);
    EXPECT_EQ(v(busy2, pv), 20e9);
    EXPECT_EQ(v(half, pv), 20e9);
  }
  // A scrape from the past advances nothing.
  const Page stale = parse_page(dcgm.scrape(1, 1.0, t0 + seconds(35)));
  EXPECT_EQ(stale.value("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", gpu(0)),
            half.value("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                       "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", gpu(0)));
}

// ---- llama.cpp timings ----

TEST(Timings, LlamaCppShape) {
  const auto j = nlohmann::json::parse(timings_json({10, 20.0, 4, 8.0}));
  const std::vector<std::string> keys = {
      "prompt_n",    "prompt_ms",    "prompt_per_token_ms",    "prompt_per_second",
      "predicted_n", "predicted_ms", "predicted_per_token_ms", "predicted_per_second"};
  ASSERT_EQ(j.size(), keys.size());
  for (const auto& k : keys) EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["prompt_n"], 10);
  EXPECT_TRUE(j["prompt_ms"].is_number_float());
  EXPECT_DOUBLE_EQ(j["prompt_ms"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["prompt_per_token_ms"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["prompt_per_second"].get<double>(), 500.0);
  EXPECT_EQ(j["predicted_n"], 4);
  EXPECT_DOUBLE_EQ(j["predicted_per_token_ms"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["predicted_per_second"].get<double>(), 500.0);
  // One token: no time between first and last; rates are 0, not infinite.
  const auto one = nlohmann::json::parse(timings_json({3, 1.5, 1, 0.0}));
  EXPECT_DOUBLE_EQ(one["predicted_per_second"].get<double>(), 0.0);
  EXPECT_TRUE(one["predicted_ms"].is_number_float());
  EXPECT_FALSE(one.contains("cache_n"));
  // A prompt partly served from the prefix cache says how much, first, as llama.cpp does.
  const std::string cached = timings_json({10, 20.0, 4, 8.0, 16});
  EXPECT_EQ(cached.rfind(R"({"cache_n":16,"prompt_n":10,)", 0), 0u) << cached;
}

}  // namespace
