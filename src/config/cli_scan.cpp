#include "config/cli_scan.hpp"

#include <algorithm>
#include <numeric>

#include "config/numeric_ranges.hpp"
#include "core/error.hpp"

namespace inferperf::config {

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap) {
  const std::size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > cap) return cap + 1;
  // Three rows: the one before the previous is needed for a swap.
  std::vector<std::size_t> two(m + 1), prev(m + 1), cur(m + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], two[j - 2] + 1);
    }
    std::swap(two, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], cap + 1);
}

std::string closest_name(std::string_view typed, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& name : names) {
    const std::size_t limit = name.size() <= 6 ? 1 : 2;  // "--" plus 4 characters
    const std::size_t d = edit_distance(typed, name, 2);
    if (d <= limit && d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

namespace {

// The option names of one subcommand, as typed: "--concurrency", "-m", "--no-..." flags.
struct KnownOptions {
  std::vector<std::string> names;
  std::vector<std::pair<std::string, const CLI::Option*>> by_name;  // every spelling
  const CLI::Option* find(std::string_view name) const {
    for (const auto& [n, opt] : by_name) {
      if (n == name) return opt;
    }
    return nullptr;
  }
};

KnownOptions known_options(const CLI::App& sub) {
  KnownOptions k;
  for (const CLI::Option* opt : sub.get_options()) {
    for (const auto& l : opt->get_lnames()) k.by_name.emplace_back("--" + l, opt);
    for (const auto& s : opt->get_snames()) k.by_name.emplace_back("-" + s, opt);
    for (const auto& f : opt->get_fnames()) {
      if (!k.find(f)) k.by_name.emplace_back(f.starts_with("-") ? f : "--" + f, opt);
    }
  }
  for (const auto& [n, opt] : k.by_name) k.names.push_back(n);
  k.names.push_back("-vv");  // AIPerf's --extra-verbose (rewritten before CLI11 reads it)
  return k;
}

const NumericRange* range_of(const CLI::Option* opt) {
  if (!opt || opt->get_lnames().empty() || !is_numeric_type_name(opt->get_type_name()))
    return nullptr;
  return find_numeric_range("--" + opt->get_lnames().front());
}

// Checks one "--flag value", "--flag=value" or "-bVALUE" at args[i]; advances i past the value.
void check_option(const KnownOptions& known, std::vector<std::string>& args, std::size_t& i,
                  std::vector<std::string>& errors) {
  std::string& arg = args[i];
  const bool is_long = arg.starts_with("--");
  const std::size_t eq = is_long ? arg.find('=') : std::string::npos;
  const std::string name = is_long ? arg.substr(0, eq) : arg.substr(0, 2);
  const CLI::Option* opt = known.find(name);
  if (!opt && !known.find(arg)) {
    if (!is_long) return;  // short options: CLI11's own message
    const std::string near = closest_name(name, known.names);
    errors.push_back("unknown option " + core::excerpt(name, 60) +
                     (near.empty() ? "" : "; did you mean " + near + "?"));
    return;
  }
  const NumericRange* r = range_of(opt);
  if (!r) return;
  std::string* value = nullptr;
  std::size_t offset = 0;
  if (eq != std::string::npos) {
    value = &arg;
    offset = eq + 1;
  } else if (!is_long && arg.size() > 2) {
    value = &arg;
    offset = 2;
  } else if (i + 1 < args.size() && !args[i + 1].starts_with("--") && !known.find(args[i + 1])) {
    value = &args[++i];
  }
  if (!value) return;  // CLI11 says the value is missing
  const auto check = check_numeric_value(*r, name, std::string_view(*value).substr(offset));
  if (check.canonical) {
    *value = value->substr(0, offset) + *check.canonical;
  } else {
    errors.push_back(check.error);
  }
}

const CLI::App* subcommand_named(const CliApp& cli, const std::string& name) {
  for (const CLI::App* sub : {cli.profile, cli.analyze, cli.analyze_trace}) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> scan_arguments(const CliApp& cli, std::vector<std::string>& args) {
  std::vector<std::string> errors;
  std::size_t first = 0;
  while (first < args.size() && args[first].starts_with("-")) ++first;
  if (first == args.size()) return errors;
  const CLI::App* sub = subcommand_named(cli, args[first]);
  if (!sub) {
    std::vector<std::string> commands;
    for (const CLI::App* s : cli.app->get_subcommands([](const CLI::App*) { return true; }))
      commands.push_back(s->get_name());
    if (std::find(commands.begin(), commands.end(), args[first]) != commands.end())
      return errors;  // plot, merge, tokenize, probe: parsed elsewhere
    const std::string near = closest_name(args[first], commands);
    errors.push_back("unknown command " + core::excerpt(args[first], 60) +
                     (near.empty() ? "" : "; did you mean " + near + "?"));
    return errors;
  }
  const KnownOptions known = known_options(*sub);
  for (std::size_t i = first + 1; i < args.size(); ++i) {
    if (args[i] == "--") break;  // what follows is positional
    if (args[i].size() > 1 && args[i].starts_with("-")) check_option(known, args, i, errors);
  }
  return errors;
}

}  // namespace inferperf::config
