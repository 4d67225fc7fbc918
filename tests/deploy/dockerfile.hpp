// The repository's Dockerfile read as the deploy tests need it: stages, instructions with their
// lines, the packages each stage installs, the final user and the entrypoint.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace inferperf::deploy_test {

// Text of a file; throws std::runtime_error naming it when it cannot be read.
std::string read_text(const std::string& path);

struct Instruction {
  int line = 0;      // first physical line
  std::string op;    // upper case: FROM, RUN, COPY, USER, ...
  std::string args;  // the rest, continuation lines joined with a space
  // Each physical line of the instruction (continuations without their backslash), with its
  // number: errors name the line a word is on.
  std::vector<std::pair<int, std::string>> physical;
};

struct Stage {
  int line = 0;
  std::string image;  // FROM's image
  std::string name;   // AS name, or ""
  std::vector<Instruction> body;
};

struct Word {
  int line = 0;
  std::string text;
};

struct Dockerfile {
  std::string file;
  std::vector<Instruction> preamble;  // ARG lines before the first FROM
  std::vector<Stage> stages;

  std::string where(int line) const { return file + ":" + std::to_string(line); }
};

// Throws std::runtime_error("file:line: ...") on an instruction before FROM other than ARG, or a
// FROM without an image.
Dockerfile parse_dockerfile(const std::string& file, const std::string& text);

// The packages a stage's `apt-get install` commands name (options left out), with their lines.
std::vector<Word> apt_packages(const Stage& s);

// The words of a shell-ish line, split on blanks.
std::vector<std::string> split_words(const std::string& s);

struct ImageUser {
  int line = 0;
  std::string spec;         // USER's argument
  std::optional<long> uid;  // when numeric
  std::optional<long> gid;
};
// The last USER of the final stage.
std::optional<ImageUser> final_user(const Dockerfile& d);

// ENTRYPOINT of the final stage in exec form (a JSON array of strings); nullopt when missing or
// in shell form.
struct Entrypoint {
  int line = 0;
  std::vector<std::string> argv;
};
std::optional<Entrypoint> final_entrypoint(const Dockerfile& d);

}  // namespace inferperf::deploy_test
