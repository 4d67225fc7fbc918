// --slice-duration end to end: a 2 s run against the mock server in 0.5 s slices.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, sep);) out.push_back(cell);
  return out;
}

TEST(Timeslices, TwoSecondRunInHalfSecondSlices) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-slices-");
  auto r =
      run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--artifact-dir",
                   dir, "--isl", "16", "--request-rate", "20", "--arrival-pattern", "constant",
                   "--benchmark-duration", "2", "--slice-duration", "0.5"},
                  std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string csv_path = dir + "/profile_export_aiperf_timeslices.csv";
  const std::string json_path = dir + "/profile_export_aiperf_timeslices.json";
  ASSERT_TRUE(std::filesystem::exists(csv_path));
  ASSERT_TRUE(std::filesystem::exists(json_path));
  const auto json_line = r.out.find("JSON Export: ");
  const auto csv_line = r.out.find("Timeslice CSV Export: " + csv_path);
  const auto tjson_line = r.out.find("Timeslice JSON Export: " + json_path);
  ASSERT_NE(csv_line, std::string::npos) << r.out;
  ASSERT_NE(tjson_line, std::string::npos) << r.out;
  EXPECT_LT(json_line, csv_line);
  EXPECT_LT(csv_line, tjson_line);

  const json summary = json::parse(read_file(dir + "/profile_export_aiperf.json"));
  const double total = summary["request_count"]["avg"].get<double>();
  EXPECT_GE(total, 30);
  EXPECT_EQ(summary["input_config"]["artifacts"]["slice_duration"], 0.5);

  const json slices = json::parse(read_file(json_path));
  EXPECT_EQ(slices["input_config"], summary["input_config"]);
  const auto& list = slices["timeslices"];
  ASSERT_GE(list.size(), 4u) << "2 s of requests in 0.5 s slices";
  ASSERT_LE(list.size(), 6u);
  double sum = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i]["timeslice_index"], i);
    ASSERT_TRUE(list[i].contains("request_count")) << i;
    sum += list[i]["request_count"]["avg"].get<double>();
    EXPECT_EQ(list[i]["request_latency"].size(), summary["request_latency"].size());
  }
  EXPECT_EQ(sum, total);

  // The CSV says the same: one "Request Count" row per slice, indices from the JSON.
  std::istringstream csv(read_file(csv_path));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  EXPECT_EQ(line, "Timeslice,Metric,Unit,Stat,Value\r");
  std::map<int, double> counts;
  while (std::getline(csv, line)) {
    ASSERT_FALSE(line.empty());
    ASSERT_EQ(line.back(), '\r');
    line.pop_back();
    const auto cells = split(line, ',');
    ASSERT_EQ(cells.size(), 5u) << line;
    const int index = std::stoi(cells[0]);
    EXPECT_GE(index, 0);
    EXPECT_LT(index, static_cast<int>(list.size()));
    if (cells[1] == "Request Count") {
      EXPECT_EQ(cells[3], "avg");
      counts[index] = std::stod(cells[4]);
    }
  }
  ASSERT_EQ(counts.size(), list.size());
  for (const auto& [index, count] : counts) {
    EXPECT_EQ(count, list[static_cast<std::size_t>(index)]["request_count"]["avg"].get<double>());
  }
}

}  // namespace
}  // namespace inferperf::testing
