#include "sweep/sweep_args.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>

#include "core/error.hpp"

namespace inferperf::sweep {

namespace {

struct Sweepable {
  const char* name;
  std::vector<std::string> flags;
  bool integer;
};

const std::vector<Sweepable>& sweepables() {
  static const std::vector<Sweepable> k = {
      {"concurrency", {"--concurrency"}, true},
      {"request_rate", {"--request-rate"}, false},
      {"isl", {"--synthetic-input-tokens-mean", "--prompt-input-tokens-mean", "--isl"}, true},
      {"osl", {"--output-tokens-mean", "--prompt-output-tokens-mean", "--osl"}, true},
  };
  return k;
}

const Sweepable* sweepable_for(const std::string& flag) {
  for (const auto& s : sweepables()) {
    if (std::find(s.flags.begin(), s.flags.end(), flag) != s.flags.end()) return &s;
  }
  return nullptr;
}

std::vector<std::string> split_commas(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = v.find(',', start);
    out.push_back(v.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::optional<double> parse_number(const std::string& s) {
  double v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> parse_integer(const std::string& s) {
  long long v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(const std::string& s) {
  if (s == "true" || s == "True" || s == "1") return true;
  if (s == "false" || s == "False" || s == "0") return false;
  return std::nullopt;
}

}  // namespace

SweepArgs extract_sweep_args(const std::vector<std::string>& args) {
  SweepArgs out;
  if (args.empty() || args.front() != "profile") {
    out.base = args;
    return out;
  }
  std::set<std::string> sweepable_seen;  // by name: a list plus another value is ambiguous
  std::set<std::string> listed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (!word.starts_with("--")) {
      out.base.push_back(word);
      continue;
    }
    const auto eq = word.find('=');
    const std::string flag = eq == std::string::npos ? word : word.substr(0, eq);
    const bool inline_value = eq != std::string::npos;
    // The value of a flag that takes one; nullopt (and an error) when it is missing.
    auto take_value = [&]() -> std::optional<std::string> {
      if (inline_value) return word.substr(eq + 1);
      if (i + 1 < args.size()) return args[++i];
      out.errors.push_back(flag + " needs a value");
      return std::nullopt;
    };
    // A switch with an optional "=true|false" (or a following true/false word).
    auto take_switch = [&](bool& target, bool value_if_bare) {
      if (inline_value) {
        auto b = parse_bool(word.substr(eq + 1));
        if (!b) {
          out.errors.push_back(flag + ": '" + word.substr(eq + 1) + "' is not true or false");
          return;
        }
        target = value_if_bare ? *b : !*b;
        return;
      }
      if (i + 1 < args.size()) {
        if (auto b = parse_bool(args[i + 1])) {
          ++i;
          target = value_if_bare ? *b : !*b;
          return;
        }
      }
      target = value_if_bare;
    };
    auto take_seconds = [&](double& target) {
      auto v = take_value();
      if (!v) return;
      auto d = parse_number(*v);
      // A year bounds a pause between runs; beyond it (1e300, inf) a sweep would never end.
      constexpr double kMaxSeconds = 365.0 * 24 * 3600;
      if (!d || !std::isfinite(*d) || *d < 0 || *d > kMaxSeconds) {
        out.errors.push_back(flag +
                             " must be a number of seconds between 0 and 31,536,000 (365 "
                             "days) (got " +
                             core::excerpt(*v) + ")");
        return;
      }
      target = *d;
    };

    SweepOptions& o = out.options;
    if (flag == "--num-profile-runs") {
      auto v = take_value();
      if (!v) continue;
      auto n = parse_integer(*v);
      if (!n || *n < 1 || *n > 10) {
        out.errors.push_back("--num-profile-runs: '" + *v + "' is not a whole number from 1 to 10");
        continue;
      }
      o.num_profile_runs = static_cast<int>(*n);
    } else if (flag == "--profile-run-cooldown-seconds") {
      take_seconds(o.profile_run_cooldown_s);
    } else if (flag == "--sweep-cooldown-seconds") {
      take_seconds(o.sweep_cooldown_s);
    } else if (flag == "--confidence-level") {
      auto v = take_value();
      if (!v) continue;
      auto d = parse_number(*v);
      if (!d || *d <= 0 || *d >= 1) {
        out.errors.push_back("--confidence-level: '" + *v + "' is not a number between 0 and 1");
        continue;
      }
      o.confidence_level = *d;
    } else if (flag == "--sweep-type") {
      auto v = take_value();
      if (!v) continue;
      if (*v != "grid" && *v != "zip") {
        out.errors.push_back("--sweep-type: '" + *v + "' is not grid or zip");
        continue;
      }
      o.sweep_type = *v;
    } else if (flag == "--profile-run-disable-warmup-after-first") {
      take_switch(o.disable_warmup_after_first, true);
    } else if (flag == "--no-profile-run-disable-warmup-after-first") {
      take_switch(o.disable_warmup_after_first, false);
    } else if (flag == "--set-consistent-seed") {
      take_switch(o.consistent_seed, true);
    } else if (flag == "--no-set-consistent-seed") {
      take_switch(o.consistent_seed, false);
    } else if (flag == "--cache-salt-per-run") {
      take_switch(o.cache_salt_per_run, true);
    } else if (flag == "--auto-plot") {
      take_switch(o.auto_plot, true);
    } else if (flag == "--dry-run") {
      take_switch(o.dry_run, true);
    } else if (flag == "--artifact-dir" || flag == "--output-artifact-dir") {
      if (auto v = take_value()) o.artifact_dir = *v;
    } else if (flag == "--random-seed") {
      if (auto v = take_value()) o.random_seed = *v;
    } else if (const Sweepable* s = sweepable_for(flag)) {
      const std::size_t flag_at = i;
      auto v = take_value();
      if (!v) continue;
      const bool again = !sweepable_seen.insert(s->name).second;
      if (v->find(',') == std::string::npos) {
        if (listed.count(s->name)) {
          out.errors.push_back(flag + " is swept and given again");
        }
        // One value: an ordinary flag for the profile parser to check.
        for (std::size_t k = flag_at; k <= i; ++k) out.base.push_back(args[k]);
        continue;
      }
      if (again) {
        out.errors.push_back(flag + " is swept and given again");
        continue;
      }
      listed.insert(s->name);
      SweepParam p{s->name, flag, {}};
      std::set<std::string> unique;
      bool ok = true;
      for (const auto& item : split_commas(*v)) {
        const bool good =
            s->integer ? parse_integer(item).value_or(0) > 0 : parse_number(item).value_or(0) > 0;
        if (!good) {
          out.errors.push_back(fmt::format("{}: '{}' in '{}' is not a {} above 0", flag, item, *v,
                                           s->integer ? "whole number" : "number"));
          ok = false;
          continue;
        }
        if (!unique.insert(item).second) {
          out.errors.push_back(fmt::format("{}: '{}' appears twice in '{}'", flag, item, *v));
          ok = false;
        }
        p.values.push_back(item);
      }
      if (ok) out.params.push_back(std::move(p));
    } else {
      out.base.push_back(word);
    }
  }
  const auto seed =
      out.options.random_seed ? parse_integer(*out.options.random_seed) : std::nullopt;
  if (out.options.random_seed && (!seed || *seed < 0)) {
    // Left to the profile parser's message; the orchestrator only needs it as a number.
    out.base.push_back("--random-seed");
    out.base.push_back(*out.options.random_seed);
    out.options.random_seed.reset();
  }
  return out;
}

std::vector<std::string> child_args(const SweepArgs& s, const RunArgs& run) {
  std::vector<std::string> out = s.base;
  for (std::size_t k = 0; k < s.params.size() && k < run.point_values.size(); ++k) {
    out.push_back(s.params[k].flag);
    out.push_back(run.point_values[k]);
  }
  if (!run.artifact_dir.empty()) {
    out.push_back("--artifact-dir");
    out.push_back(run.artifact_dir);
  }
  if (run.random_seed) {
    out.push_back("--random-seed");
    out.push_back(*run.random_seed);
  }
  if (run.no_warmup) out.push_back("--no-warmup");
  if (run.cache_salt) {
    // Last: --extra-inputs takes every word up to the next flag.
    out.push_back("--extra-inputs");
    out.push_back(cache_salt_extra_input(*run.cache_salt));
  }
  return out;
}

std::string cache_salt_extra_input(const std::string& salt) {
  return nlohmann::json{{"cache_salt", salt}}.dump();
}

std::string cache_salt_from_bits(std::uint64_t bits) {
  return fmt::format("{:012x}", bits & 0xffffffffffffULL);
}

std::string random_cache_salt() {
  static std::mt19937_64 gen = [] {
    if (const char* seed = std::getenv("INFERPERF_CACHE_SALT_SEED")) {
      if (const auto v = parse_integer(seed))
        return std::mt19937_64(static_cast<std::uint64_t>(*v));
      std::cerr << "warning: INFERPERF_CACHE_SALT_SEED='" << seed
                << "' is not a whole number; the cache salts are random\n";
    }
    std::random_device rd;
    return std::mt19937_64((static_cast<std::uint64_t>(rd()) << 32) ^ rd());
  }();
  return cache_salt_from_bits(gen());
}

}  // namespace inferperf::sweep
