// `{{ expr }}` in a YAML configuration: a variable, a number, or arithmetic over them. Jinja
// filters, tests, strings and calls are refused by name rather than half evaluated.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "config/yaml_support.hpp"

namespace inferperf::config::yaml {

namespace {

struct ExprParser {
  std::string_view s;
  const std::map<std::string, std::string>& vars;
  std::string& error;
  std::size_t i = 0;

  void skip() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool fail(const std::string& why) {
    if (error.empty()) error = why;
    return false;
  }
  bool value_of(const std::string& name, double& out) {
    const auto it = vars.find(name);
    if (it == vars.end()) return fail("unknown variable '" + name + "'");
    char* end = nullptr;
    out = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0')
      return fail("variable '" + name + "' is not a number (" + it->second + ")");
    return true;
  }
  bool primary(double& out) {
    skip();
    if (i >= s.size()) return fail("expression ends too early");
    if (s[i] == '(') {
      ++i;
      if (!sum(out)) return false;
      skip();
      if (i >= s.size() || s[i] != ')') return fail("missing ')'");
      ++i;
      return true;
    }
    if (s[i] == '-') {
      ++i;
      if (!primary(out)) return false;
      out = -out;
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.') {
      const std::string rest(s.substr(i));
      char* end = nullptr;
      out = std::strtod(rest.c_str(), &end);
      i += static_cast<std::size_t>(end - rest.c_str());
      return true;
    }
    if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      const std::size_t start = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      return value_of(std::string(s.substr(start, i - start)), out);
    }
    return fail(std::string("'") + s[i] +
                "' is not supported (only variables, numbers and + - * / % ( ))");
  }
  bool product(double& out) {
    if (!primary(out)) return false;
    for (;;) {
      skip();
      if (i >= s.size() || (s[i] != '*' && s[i] != '/' && s[i] != '%')) return true;
      const char op = s[i++];
      double rhs = 0;
      if (!primary(rhs)) return false;
      if (op != '*' && rhs == 0) return fail("division by zero");
      out = op == '*' ? out * rhs : op == '/' ? out / rhs : std::fmod(out, rhs);
    }
  }
  bool sum(double& out) {
    if (!product(out)) return false;
    for (;;) {
      skip();
      if (i >= s.size() || (s[i] != '+' && s[i] != '-')) return true;
      const char op = s[i++];
      double rhs = 0;
      if (!product(rhs)) return false;
      out = op == '+' ? out + rhs : out - rhs;
    }
  }
};

bool expr_is_name(std::string_view t) {
  if (t.empty() || std::isdigit(static_cast<unsigned char>(t[0]))) return false;
  for (const char c : t) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> evaluate_expression(std::string_view expr,
                                               const std::map<std::string, std::string>& vars,
                                               std::string& error) {
  std::size_t a = 0, b = expr.size();
  while (a < b && std::isspace(static_cast<unsigned char>(expr[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(expr[b - 1]))) --b;
  const std::string_view t = expr.substr(a, b - a);
  if (expr_is_name(t)) {  // a plain reference keeps the variable's text, number or not
    const auto it = vars.find(std::string(t));
    if (it == vars.end()) {
      error = "unknown variable '" + std::string(t) + "'";
      return std::nullopt;
    }
    return it->second;
  }
  ExprParser p{t, vars, error};
  double v = 0;
  if (!p.sum(v)) return std::nullopt;
  p.skip();
  if (p.i != t.size()) {
    error = "'" + std::string(t.substr(p.i)) +
            "' is not supported (only variables, numbers and + - * / % ( ))";
    return std::nullopt;
  }
  if (!std::isfinite(v)) {
    error = "the result is not a finite number";
    return std::nullopt;
  }
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  std::ostringstream o;
  o.precision(15);
  o << v;
  return o.str();
}

}  // namespace inferperf::config::yaml
