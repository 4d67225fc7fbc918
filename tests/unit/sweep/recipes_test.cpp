// The explicit plans: --variant scenarios, the --search-recipe expansions, a sampled design
// (--sweep-design, as the YAML translation writes it), and the recipes' post-processing.
#include "sweep/recipes.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sweep/points.hpp"
#include "sweep/recipe_post.hpp"
#include "sweep/sweep_args.hpp"
#include "sweep/variants.hpp"

namespace inferperf::sweep {
namespace {

using Words = std::vector<std::string>;

SweepArgs args(Words extra) {
  Words w = {"profile", "-m", "x", "--streaming"};
  w.insert(w.end(), extra.begin(), extra.end());
  return extract_sweep_args(w);
}

std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  return out;
}

TEST(Variants, ParseNamesKeysAndValuesHoldingCommas) {
  auto v = parse_variant("low: concurrency=4, request_rate=2.5");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->name, "low");
  ASSERT_EQ(v->sets.size(), 2u);
  EXPECT_EQ(v->sets[0], (std::pair<std::string, std::string>{"--concurrency", "4"}));
  EXPECT_EQ(v->sets[1], (std::pair<std::string, std::string>{"--request-rate", "2.5"}));
  // No name; a value with ':' and a continuation after a comma.
  v = parse_variant("extra-inputs=a:1,b:2, --osl=9");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->name, "");
  EXPECT_EQ(v->sets[0].second, "a:1,b:2");
  EXPECT_EQ(v->sets[1].first, "--osl");
  EXPECT_FALSE(parse_variant("low: "));
  EXPECT_FALSE(parse_variant("concurrency"));
  EXPECT_FALSE(parse_variant("concurrency=1, concurrency=2"));
  EXPECT_FALSE(parse_variant("a b=1"));
}

TEST(Variants, EachIsOneRunAndTheBaseValueStaysWhereAScenarioLeavesIt) {
  const auto s =
      args({"--concurrency", "2", "--variant", "low: concurrency=1, isl=0064", "--variant",
            "high: concurrency=8, streaming=false", "--variant", "request-rate=5"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x"}));  // --concurrency and --streaming moved
  EXPECT_EQ(s.options.sweep_type, "scenarios");
  auto points = expand_points(s);
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 3u);
  EXPECT_EQ((*points)[0].folder, "low");
  EXPECT_EQ((*points)[0].variation_label, "low");
  RunArgs r;
  r.point_values = (*points)[0].values;
  EXPECT_EQ(child_args(s, r),
            (Words{"profile", "-m", "x", "--concurrency=1", "--isl=64", "--streaming=true"}));
  r.point_values = (*points)[1].values;
  EXPECT_EQ(child_args(s, r),
            (Words{"profile", "-m", "x", "--concurrency=8", "--streaming=false"}));
  r.point_values = (*points)[2].values;  // keeps concurrency 2 and streaming from the base
  EXPECT_EQ(child_args(s, r), (Words{"profile", "-m", "x", "--concurrency=2", "--streaming=true",
                                     "--request-rate=5.0"}));
  EXPECT_EQ((*points)[2].folder, "concurrency_2__streaming_true__rate_5.0");
}

TEST(Variants, RefusedCombinations) {
  EXPECT_FALSE(args({"--variant", "concurrency=1"}).errors.empty());  // one is not a sweep
  EXPECT_FALSE(args({"--variant", "concurrency=1", "--variant", "concurrency=2", "--isl", "1,2"})
                   .errors.empty());
  EXPECT_FALSE(
      args({"--variant", "num-profile-runs=2", "--variant", "concurrency=2"}).errors.empty());
  EXPECT_FALSE(
      args({"--variant", "a: concurrency=1", "--variant", "a: concurrency=2"}).errors.empty());
  EXPECT_FALSE(args({"--variant", "concurrency=0", "--variant", "concurrency=2"}).errors.empty());
  EXPECT_FALSE(args({"--variant", "concurrency=1", "--variant", "concurrency=2", "--search-recipe",
                     "concurrency-ramp"})
                   .errors.empty());
}

TEST(Variants, FoldersAreSafeAndNeverShared) {
  auto s = args(
      {"--variant", "model=org/a", "--variant", "model=org/b", "--variant", "..: concurrency=2"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  auto points = expand_points(s);
  ASSERT_TRUE(points) << points.error().message;
  EXPECT_EQ((*points)[0].folder, "model_org_a");
  EXPECT_EQ((*points)[2].folder, "___");  // never "." or ".."
  // Two names that clean to one folder, two identical scenarios, a repeated pareto shape.
  for (const Words& w : {Words{"--variant", "a b: osl=1", "--variant", "a_b: osl=2"},
                         Words{"--variant", "osl=1", "--variant", "osl=1"},
                         Words{"--search-recipe", "pareto-sweep", "--isl-osl-pairs",
                               "128/128,128/128", "--concurrency", "1"}}) {
    s = args(w);
    ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
    points = expand_points(s);
    ASSERT_FALSE(points) << w[1];
    EXPECT_NE(points.error().message.find("would share the folder"), std::string::npos);
  }
}

TEST(Recipes, LogSpacedValuesAsAiperfComputesThem) {
  EXPECT_EQ(log_spaced(1, 1000, 8), (std::vector<long long>{1, 3, 7, 19, 52, 139, 373, 1000}));
  EXPECT_EQ(log_spaced(256, 32768, 8),
            (std::vector<long long>{256, 512, 1024, 2048, 4096, 8192, 16384, 32768}));
  EXPECT_EQ(log_spaced(1, 2, 5), (std::vector<long long>{1, 2}));  // duplicates collapse
}

TEST(Recipes, GridRecipesMakeTheirListsAndPostProcessing) {
  auto s = args({"--search-recipe", "concurrency-ramp", "--concurrency-max", "64",
                 "--concurrency-steps", "4", "--degradation-threshold", "0.5"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  ASSERT_EQ(s.params.size(), 1u);
  EXPECT_EQ(s.params[0].values, (Words{"1", "4", "16", "64"}));
  ASSERT_TRUE(s.post);
  EXPECT_EQ(s.post->file, "degradation_knee.json");
  EXPECT_EQ(s.post->threshold, 0.5);
  EXPECT_FALSE(s.search.enabled());
  EXPECT_TRUE(s.options.auto_plot);  // a curve recipe plots unless told not to
  EXPECT_FALSE(args({"--search-recipe", "concurrency-ramp", "--no-auto-plot"}).options.auto_plot);

  s = args({"--concurrency", "9", "--search-recipe", "prefill-ttft-curve", "--isl-min", "100",
            "--isl-max", "400", "--isl-steps", "3"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  EXPECT_EQ(s.params[0].values, (Words{"100", "200", "400"}));
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x", "--streaming", "--concurrency", "1"}));
  EXPECT_EQ(s.post->handler, "ttft_curve_fit");

  s = args({"--search-recipe", "decode-itl-curve"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0].name, "osl");  // datasets.* sorts before phases.*
  EXPECT_EQ(s.params[0].values, (Words{"64", "161", "406", "1024"}));
  EXPECT_EQ(s.params[1].values, (Words{"1", "3", "8", "24", "69", "200"}));

  s = args({"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "128/64,512/256", "--concurrency",
            "1,8", "--error-rate-sla", "0.05"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  const auto points = expand_points(s);
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 4u);
  EXPECT_EQ((*points)[1].folder, "shape_128_64_c8");
  EXPECT_EQ((*points)[2].values, (Words{"512", "256", "1"}));
  ASSERT_EQ(s.search.filters.size(), 1u);
  EXPECT_EQ(s.search.filters[0].text, "request_error_rate:avg:le:0.05");
}

TEST(Recipes, SearchRecipesFillTheSearch) {
  auto s = args({"--search-recipe", "max-throughput-ttft-sla", "--ttft-sla-ms", "200"});
  // The Bayesian planner is what AIPerf 0.11 runs these with.
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  EXPECT_EQ(s.search.planner, "bayesian");
  EXPECT_EQ(*s.search.metric, "output_token_throughput");
  EXPECT_EQ(s.search.sla, (Words{"time_to_first_token:p95:lt:200"}));
  EXPECT_EQ(*s.search.max_iterations, 30);

  s = args({"--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "500", "--tpot-sla-ms",
            "15", "--e2e-sla-ms", "2000", "--slo-attainment-fraction", "0.9"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  EXPECT_EQ(*s.search.metric, "goodput");
  EXPECT_EQ(s.search.sla, (Words{"good_request_fraction:avg:ge:0.9"}));
  EXPECT_EQ(s.base.end()[-1],
            "time_to_first_token:500 inter_token_latency:15 request_latency:2000");

  s = args({"--search-recipe", "max-concurrency-under-sla", "--itl-sla-ms", "30", "--search-style",
            "grid", "--concurrency-max", "8", "--concurrency-steps", "4"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  EXPECT_EQ(s.params[0].values, (Words{"1", "2", "4", "8"}));
  EXPECT_EQ(s.post->handler, "sla_breach_knee");
  EXPECT_EQ(s.search.filters.size(), 1u);
}

TEST(Recipes, MistakesAreNamed) {
  const auto first = [](const SweepArgs& s) { return s.errors.empty() ? "" : s.errors.front(); };
  EXPECT_NE(first(args({"--search-recipe", "max-throughput-itl-sla"})).find("--itl-sla-ms"),
            std::string::npos);
  EXPECT_NE(first(args({"--search-recipe", "concurrency-ramp", "--concurrency", "1,2"}))
                .find("comma lists"),
            std::string::npos);
  EXPECT_NE(
      first(extract_sweep_args({"profile", "-m", "x", "--search-recipe", "prefill-ttft-curve"}))
          .find("--streaming"),
      std::string::npos);
  EXPECT_NE(first(args({"--search-recipe", "nope"})).find("expected one of"), std::string::npos);
  EXPECT_NE(first(args({"--isl-min", "5"})).find("knob of --search-recipe"), std::string::npos);
  EXPECT_NE(first(args({"--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "1"}))
                .find("--e2e-sla-ms"),
            std::string::npos);
  EXPECT_NE(
      first(args({"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "128"})).find("isl/osl"),
      std::string::npos);
  EXPECT_FALSE(args({"--error-rate-sla", "1"}).errors.empty());
  // Thresholds on streamed tokens need --streaming; request latency alone does not.
  const auto plain = [](Words w) {
    w.insert(w.begin(), {"profile", "-m", "x", "--search-recipe", "max-concurrency-under-sla"});
    return extract_sweep_args(w);
  };
  EXPECT_NE(first(plain({"--ttft-sla-ms", "100"})).find("add --streaming"), std::string::npos);
  EXPECT_TRUE(plain({"--e2e-sla-ms", "900"}).errors.empty());
  // A recipe sets the objective and the filters itself.
  EXPECT_NE(first(args({"--search-recipe", "max-throughput-ttft-sla", "--ttft-sla-ms", "1",
                        "--search-stat", "p99"}))
                .find("sets the search itself"),
            std::string::npos);
  // pareto-sweep takes one typed concurrency as its axis.
  const auto one =
      args({"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "1/1,2/2", "--concurrency", "4"});
  ASSERT_TRUE(one.errors.empty()) << joined(one.errors);
  EXPECT_EQ(one.explicit_points[1].name, "shape_2_2_c4");
}

TEST(Recipes, SlaTiersParseLabelsAndNeedASearch) {
  const auto s = args({"--search-space", "concurrency:1,8", "--search-metric", "request_throughput",
                       "--search-direction", "maximize", "--search-max-iterations", "8",
                       "--search-sla", "request_latency:p99:lt:900", "--search-sla-tier",
                       "gold:time_to_first_token:p99:lt:200,inter_token_latency:p99:lt:20",
                       "--search-sla-tier", "time_to_first_token:p99:lt:500"});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  ASSERT_EQ(s.search.tiers.size(), 2u);
  EXPECT_EQ(s.search.tiers[0].label, "gold");
  ASSERT_EQ(s.search.tiers[0].filters.size(), 2u);
  EXPECT_EQ(s.search.tiers[0].filters[1].text, "inter_token_latency:p99:lt:20");
  EXPECT_EQ(s.search.tiers[1].label, "tier_2");
  EXPECT_EQ(s.search.filters.size(), 1u);  // --search-sla: shared by every tier
  const auto one = args({"--concurrency", "1,2", "--search-sla-tier", "a:x:p99:lt:1",
                         "--search-sla-tier", "b:x:p99:lt:2"});
  EXPECT_NE(joined(one.errors).find("--search-sla-tier needs an adaptive search"),
            std::string::npos);
  const auto single =
      args({"--search-space", "concurrency:1,8", "--search-metric", "x", "--search-direction",
            "maximize", "--search-max-iterations", "8", "--search-sla-tier", "a:x:p99:lt:1"});
  EXPECT_NE(joined(single.errors).find("2 to 10 tiers"), std::string::npos);
  const auto unlabelled =
      args({"--search-space", "concurrency:1,8", "--search-metric", "x", "--search-direction",
            "maximize", "--search-max-iterations", "8", "--search-sla-tier", ":x:p99:lt:1",
            "--search-sla-tier", "b:x:p99:lt:2"});
  EXPECT_NE(joined(unlabelled.errors).find("a label is lower-case letters"), std::string::npos);
}

TEST(Designs, ASobolDesignIsAnExplicitPlanInPathOrder) {
  const std::string design =
      R"({"type":"latin_hypercube","samples":5,"seed":3,"label_format":"index","dimensions":[)"
      R"({"path":"phases.profiling.concurrency","flag":"--concurrency","lo":1,"hi":5,"kind":"int"},)"
      R"({"path":"datasets.main.prompts.isl.mean","flag":"--isl","lo":10,"hi":1000,"scale":"log"}]})";
  const auto s = args({"--isl", "7", "--sweep-design", design});
  ASSERT_TRUE(s.errors.empty()) << joined(s.errors);
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x", "--streaming"}));
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0].name, "isl");
  EXPECT_EQ(s.options.sweep_type, "latin_hypercube");
  const auto points = expand_points(s);
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 5u);
  EXPECT_EQ((*points)[3].folder, "sample_0003");
  // A Latin hypercube over 1..5 puts each concurrency in exactly one sample.
  std::multiset<std::string> levels;
  for (const auto& p : *points) levels.insert(p.values[1]);
  EXPECT_EQ(levels, (std::multiset<std::string>{"1", "2", "3", "4", "5"}));
  const auto file = nlohmann::ordered_json::parse(*s.design_file);
  EXPECT_EQ(file["points"].size(), 5u);
  EXPECT_EQ(file["seed"], 3);
  const auto bad = args({"--sweep-design", R"({"type":"sobol","samples":1,"dimensions":[]})"});
  EXPECT_FALSE(bad.errors.empty());
  // Typed by hand with the wrong types: exit 2's message, not an exception.
  for (const char* j : {R"({"type":"sobol","samples":"four","dimensions":[]})",
                        R"({"type":"sobol","samples":4,"seed":"x","dimensions":[]})",
                        R"({"type":"sobol","samples":4,"dimensions":[5]})",
                        R"({"type":"sobol","samples":4,"dimensions":[{"flag":"--concurrency",)"
                        R"("path":"phases.profiling.concurrency","choices":[1,2]}]})"})
    EXPECT_FALSE(args({"--sweep-design", j}).errors.empty()) << j;
}

PointResult at(std::vector<std::string> values, const std::string& tag, const std::string& stat,
               double v) {
  PointResult p;
  p.point.values = std::move(values);
  p.point.label = p.point.values.front();
  RunResult r;
  r.ok = true;
  r.summary[tag] = {{"unit", "ms"}, {stat, v}};
  p.runs.push_back(r);
  return p;
}

const std::vector<SweepParam> kConcurrency = {
    {"concurrency", "--concurrency", {}, "phases.profiling.concurrency", "concurrency"}};

TEST(RecipePost, TheKneeIsTheFirstLevelPastTheThreshold) {
  const RecipePost post{"degradation_knee_detect", "degradation_knee.json", "request_latency",
                        "p99", 0.2};
  // Given out of order; the baseline is the lowest concurrency: 100, limit 120.
  const std::vector<PointResult> pts = {
      at({"8"}, "request_latency", "p99", 130), at({"1"}, "request_latency", "p99", 100),
      at({"4"}, "request_latency", "p99", 119), at({"16"}, "request_latency", "p99", 500)};
  auto r = recipe_post_json(post, kConcurrency, pts, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["baseline_concurrency"], 1);
  EXPECT_DOUBLE_EQ((*r)["degradation_limit"].get<double>(), 120.0);
  EXPECT_EQ((*r)["knee_concurrency"], 8);
  EXPECT_EQ((*r)["all_points"].size(), 4u);
  EXPECT_NE(recipe_post_line(post, *r).find("Knee: concurrency 8"), std::string::npos);
  EXPECT_FALSE(recipe_post_json(post, kConcurrency, {pts[0]}, {}));
}

TEST(RecipePost, CurveFitsALineOrAQuadratic) {
  const std::vector<SweepParam> isl = {
      {"isl", "--isl", {}, "datasets.main.prompts.isl.mean", "mean"}};
  const RecipePost post{"ttft_curve_fit", "prefill_curve.json", "time_to_first_token", "avg", 0};
  std::vector<PointResult> line, quad;
  for (double x : {100.0, 200.0, 400.0, 800.0}) {
    line.push_back(
        at({std::to_string(static_cast<int>(x))}, "time_to_first_token", "avg", 0.05 * x + 10));
    quad.push_back(
        at({std::to_string(static_cast<int>(x))}, "time_to_first_token", "avg", 1e-4 * x * x + 1));
  }
  auto r = recipe_post_json(post, isl, line, {});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["fit_form"], "linear");
  EXPECT_NEAR((*r)["coefficients"][0].get<double>(), 0.05, 1e-9);
  EXPECT_NEAR((*r)["coefficients"][1].get<double>(), 10, 1e-6);
  // A parabola sampled on a doubling grid still fits a line with r^2 above 0.85, so it stays
  // linear; a steeper curve does not.
  std::vector<PointResult> steep;
  for (double x : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0})
    steep.push_back(at({std::to_string(static_cast<int>(x))}, "time_to_first_token", "avg",
                       (x - 3.5) * (x - 3.5)));
  r = recipe_post_json(post, isl, steep, {});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["fit_form"], "quadratic");
  EXPECT_NEAR((*r)["coefficients"][0].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR((*r)["r_squared"].get<double>(), 1.0, 1e-9);
  EXPECT_LT((*r)["linear_fit"]["r_squared"].get<double>(), 0.85);
}

TEST(RecipePost, SurfaceGridAndBilinearReading) {
  const std::vector<SweepParam> grid = {
      {"osl", "--osl", {}, "datasets.main.prompts.osl.mean", "mean"}, kConcurrency[0]};
  const RecipePost post{"itl_surface_fit", "decode_itl_surface.json", "inter_token_latency", "avg",
                        0};
  std::vector<PointResult> pts;
  for (int o : {64, 128})
    for (int c : {1, 4})
      pts.push_back(at({std::to_string(o), std::to_string(c)}, "inter_token_latency", "avg",
                       2 + 3.0 * (c - 1) + 0.01 * o));
  const auto r = recipe_post_json(post, grid, pts, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["concurrency_values"], nlohmann::ordered_json({1, 4}));
  EXPECT_EQ((*r)["osl_values"], nlohmann::ordered_json({64, 128}));
  EXPECT_NEAR((*r)["grid"][1][0].get<double>(), 11.64, 1e-9);
  const std::vector<std::vector<double>> z = {{2.64, 3.28}, {11.64, 12.28}};
  // Bilinear on a plane is exact: concurrency 2.5, OSL 96 -> 2 + 4.5 + 0.96.
  EXPECT_NEAR(*bilinear({1, 4}, {64, 128}, z, 2.5, 96), 7.46, 1e-9);
  EXPECT_NEAR(*bilinear({1, 4}, {64, 128}, z, 99, 0), 11.64, 1e-9);  // clamped to the edge
  EXPECT_FALSE(bilinear({1, 4}, {64, 128}, {{2, NAN}, {3, 4}}, 2, 100));
}

TEST(RecipePost, ParetoAndSlaBreach) {
  const std::vector<SweepParam> shape = {
      {"isl", "--isl", {}, "datasets.main.prompts.isl.mean", "mean"}, kConcurrency[0]};
  std::vector<PointResult> pts;
  const double ttft[] = {10, 20, 15}, tput[] = {100, 300, 50};
  for (int i = 0; i < 3; ++i) {
    PointResult p = at({"128", std::to_string(i + 1)}, "time_to_first_token", "p95", ttft[i]);
    p.runs[0].summary["output_token_throughput"] = {{"unit", "tokens/sec"}, {"avg", tput[i]}};
    p.point.label = "shape_" + std::to_string(i);
    pts.push_back(p);
  }
  const RecipePost pareto{"pareto_sweep_export", "pareto_sweep.json", "", "", 0};
  const auto r = recipe_post_json(pareto, shape, pts, {});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["frontier"], nlohmann::ordered_json({"shape_0", "shape_1"}));
  EXPECT_FALSE((*r)["points"][2]["pareto_optimal"].get<bool>());

  const RecipePost breach{"sla_breach_knee", "sla_breach_knee.json", "", "", 0};
  const std::vector<SlaFilter> f = {*parse_sla_filter("inter_token_latency:p99:lt:30")};
  const std::vector<PointResult> levels = {
      at({"1"}, "inter_token_latency", "p99", 5), at({"2"}, "inter_token_latency", "p99", 25),
      at({"4"}, "inter_token_latency", "p99", 45), at({"8"}, "inter_token_latency", "p99", 20)};
  const auto b = recipe_post_json(breach, kConcurrency, levels, f);
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)["last_feasible_concurrency"], 2);
  EXPECT_EQ((*b)["first_breach_concurrency"], 4);  // 8 passing again does not move it
}

TEST(RecipePost, ErrorRateIsDerivedFromTheRunsCounts) {
  RunResult r;
  r.ok = true;
  r.summary["request_count"] = {{"avg", 95}};
  r.summary["error_request_count"] = {{"avg", 5}};
  EXPECT_DOUBLE_EQ(*run_metric(r, "request_error_rate", "avg"), 0.05);
  r.summary.erase("error_request_count");
  EXPECT_DOUBLE_EQ(*run_metric(r, "request_error_rate", "p99"), 0.0);
}

}  // namespace
}  // namespace inferperf::sweep
