// `inferperf config`: every bundled template validates, init's replacements, expand's variations.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

#include "../test_files.hpp"
#include "app/config_command/config_command.hpp"
#include "app/config_command/config_templates.hpp"
#include "app/profile/profile_command.hpp"

namespace {

using inferperf::app::config_template_text;
using inferperf::app::config_templates;
using inferperf::app::ConfigExpandOptions;
using inferperf::app::expand_config_text;

TEST(ConfigTemplates, EveryTemplateValidates) {
  inferperf::test_files::ScratchDir dir("config-templates");
  std::set<std::string> names;
  ASSERT_GE(config_templates().size(), 8u);
  for (const auto& t : config_templates()) {
    EXPECT_TRUE(names.insert(std::string(t.name)).second) << t.name << " twice";
    const auto path = dir / (std::string(t.name) + ".yaml");
    std::ofstream(path) << t.text;
    // What `config validate` runs: the whole load pipeline, nothing sent.
    EXPECT_EQ(inferperf::app::run_profile_command({"profile", "-f", path.string(), "--dry-run"}), 0)
        << t.name;
  }
}

TEST(ConfigTemplates, InitReplacesModelAndUrl) {
  const auto text = config_template_text("minimal", "my/model", "http://gpu:9000");
  ASSERT_TRUE(text);
  EXPECT_NE(text->find("model: my/model\n"), std::string::npos) << *text;
  EXPECT_NE(text->find("url: http://gpu:9000\n"), std::string::npos) << *text;
  EXPECT_EQ(text->find("Qwen"), std::string::npos);
  EXPECT_FALSE(config_template_text("no_such_template", "", ""));
}

TEST(ConfigExpand, ListsTheVariationsInRunOrder) {
  inferperf::test_files::ScratchDir dir("config-expand");
  const auto path = (dir / "sweep.yaml").string();
  std::ofstream(path) << *config_template_text("isl_osl_zip_sweep", "", "");
  std::string error;
  const auto text = expand_config_text(path, {}, error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(*text,
            "3 variation(s) (zip)\n"
            "[0] mean_128__mean_512: datasets.main.prompts.isl.mean=128, "
            "datasets.main.prompts.osl.mean=512\n"
            "[1] mean_1024__mean_256: datasets.main.prompts.isl.mean=1024, "
            "datasets.main.prompts.osl.mean=256\n"
            "[2] mean_4096__mean_64: datasets.main.prompts.isl.mean=4096, "
            "datasets.main.prompts.osl.mean=64\n");
  ConfigExpandOptions one;
  one.index = 2;
  one.full = true;
  one.format = "json";
  const auto j = nlohmann::json::parse(*expand_config_text(path, one, error));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["name"], "mean_4096__mean_64");
  EXPECT_EQ(j[0]["benchmark"]["datasets"][0]["prompts"]["isl"], 4096);
  EXPECT_EQ(j[0]["benchmark"]["datasets"][0]["prompts"]["osl"], 64);
  one.index = 3;
  EXPECT_FALSE(expand_config_text(path, one, error));
  EXPECT_NE(error.find("0 to 2"), std::string::npos) << error;
}

TEST(ConfigCommand, ValidateExitsOneForABadFileAndTwoForABadCommandLine) {
  inferperf::test_files::ScratchDir dir("config-validate");
  const auto good = (dir / "good.yaml").string(), bad = (dir / "bad.yaml").string();
  std::ofstream(good) << *config_template_text("minimal", "", "");
  std::ofstream(bad) << "benchmark:\n  model: m\n  phases: {concurrency: 0}\n";
  using inferperf::app::run_config_command;
  EXPECT_EQ(run_config_command({"config", "validate", "--config-file", good}), 0);
  EXPECT_EQ(run_config_command({"config", "validate", "--config-file", bad}), 1);
  EXPECT_EQ(run_config_command({"config", "validate", good}), 0) << "the file positional";
  EXPECT_EQ(run_config_command({"config", "expand", good}), 0);
  EXPECT_EQ(run_config_command({"config", "validate"}), 2);
  EXPECT_EQ(run_config_command({"config", "init", "-t", "no_such_template"}), 2);
  const auto out = (dir / "written.yaml").string();
  EXPECT_EQ(run_config_command({"config", "init", "-t", "goodput_slo", "-m", "x", "-o", out}), 0);
  EXPECT_EQ(inferperf::test_files::read_whole_file(out),
            *config_template_text("goodput_slo", "x", ""));
}

}  // namespace
