// random_pool (trace-formats §7): a file is one pool, a folder one pool per file (sorted by name).
// Each conversation is one turn made of one entry drawn from every pool.
#include <fmt/format.h>

#include <algorithm>

#include "core/rng.hpp"
#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"

namespace inferperf::dataset {

namespace fs = std::filesystem;

std::optional<core::Error> load_random_pool(LoadContext& ctx) {
  const fs::path& path = ctx.options.path;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(path, ec)) {
    for (const auto& e : fs::directory_iterator(path, ec))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) return ctx.error(0, "--input-file", "the random_pool folder holds no file");
  } else {
    files.push_back(path);
  }
  std::vector<std::vector<Turn>> pools;
  for (const auto& f : files) {
    auto content = read_input_file(f, "random_pool");
    if (!content) return content.error();
    const std::string file = f.string();
    pools.emplace_back();
    auto err =
        for_each_json_line(*content, file, [&](int line, ojson& j) -> std::optional<core::Error> {
          ++ctx.out.lines;
          LineContext at{file, line, f.parent_path()};
          for (const char* k : {"timestamp", "delay", "session_id"})
            if (j.contains(k)) return at.error(k, "random_pool entries carry no timing or session");
          Turn t;
          if (auto e = parse_turn(j, at, "", t)) return e;
          pools.back().push_back(std::move(t));
          return std::nullopt;
        });
    if (err) return err;
  }
  std::mt19937_64 rng(core::derive_seed(ctx.options.seed, "dataset.random_pool"));
  for (int i = 0; i < ctx.options.num_conversations; ++i) {
    Turn turn;
    bool first = true;
    for (const auto& pool : pools) {
      const Turn& pick = pool[static_cast<std::size_t>(core::uniform_index(rng, pool.size()))];
      if (first) {
        turn = pick;
        first = false;
        continue;
      }
      if (!pick.text.empty()) {
        if (turn.text.empty())
          turn.text = pick.text;
        else
          turn.more_texts.push_back(pick.text);
      }
      turn.more_texts.insert(turn.more_texts.end(), pick.more_texts.begin(), pick.more_texts.end());
      turn.media.insert(turn.media.end(), pick.media.begin(), pick.media.end());
      if (pick.max_tokens) turn.max_tokens = pick.max_tokens;
    }
    Conversation c;
    c.session_id = core::uuid4(ctx.id_rng);
    c.turns.push_back(std::move(turn));
    ctx.out.dataset.conversations.push_back(std::move(c));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
