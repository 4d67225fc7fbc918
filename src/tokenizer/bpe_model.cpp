#include "tokenizer/bpe_model.hpp"

#include <climits>
#include <cstdio>
#include <queue>
#include <thread>

#include "tokenizer/byte_level.hpp"
#include "tokenizer/json_util.hpp"
#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

namespace {
constexpr std::size_t kMaxCachedWordBytes = 256;

}  // namespace

std::int32_t BpeModel::find_symbol(std::string_view s) const {
  return symbols_.find(s);
}

std::int32_t BpeModel::symbol_id(std::string_view s) {
  const std::int32_t id = symbols_.insert(s, next_phantom_);
  if (id == next_phantom_) ++next_phantom_;
  return id;
}

core::Result<std::unique_ptr<BpeModel>> BpeModel::from_json(simdjson::dom::element c) {
  auto fail = [](const std::string& why, const std::string& field) {
    return core::Error{core::ErrorKind::kInput, why, "", 0, field};
  };
  std::unique_ptr<BpeModel> m(new BpeModel());
  std::string_view unk;
  if (c["unk_token"].get_string().get(unk) == simdjson::SUCCESS)
    m->options_.unk_token = std::string(unk);
  m->options_.continuing_subword_prefix = str_field(c, "continuing_subword_prefix");
  m->options_.end_of_word_suffix = str_field(c, "end_of_word_suffix");
  m->options_.byte_fallback = bool_field(c, "byte_fallback", false);
  m->options_.fuse_unk = bool_field(c, "fuse_unk", false);
  m->options_.ignore_merges = bool_field(c, "ignore_merges", false);

  simdjson::dom::object vocab;
  if (c["vocab"].get_object().get(vocab) != simdjson::SUCCESS)
    return fail("BPE model without a vocab object", "model.vocab");
  m->symbols_.reserve(vocab.size() + vocab.size() / 8);
  std::int64_t max_id = -1;
  std::vector<std::pair<std::string_view, std::int32_t>> entries;
  entries.reserve(vocab.size());
  for (auto field : vocab) {
    std::int64_t id = 0;
    if (field.value.get_int64().get(id) != simdjson::SUCCESS || id < 0 || id > INT32_MAX) {
      return fail("vocab entry '" + std::string(field.key) + "' has no valid id", "model.vocab");
    }
    entries.emplace_back(field.key, static_cast<std::int32_t>(id));
    max_id = std::max(max_id, id);
  }
  // Inserting with the slot of an entry a few places ahead already on its way from memory.
  constexpr std::size_t kAhead = 8;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i + kAhead < entries.size()) m->symbols_.prefetch(entries[i + kAhead].first);
    m->symbols_.insert(entries[i].first, entries[i].second);
    ++m->vocab_count_;
  }
  m->vocab_limit_ = static_cast<std::int32_t>(max_id + 1);
  m->next_phantom_ = m->vocab_limit_;
  m->symbols_.for_each([&](std::string_view tok, std::int32_t id) {
    std::size_t i = 0;
    if (!tok.empty() && utf8_len(static_cast<unsigned char>(tok[0])) == tok.size()) {
      m->char_symbols_[next_code_point(tok, i)] = id;
    }
  });

  simdjson::dom::array merges;
  if (c["merges"].get_array().get(merges) == simdjson::SUCCESS) {
    // Pass 1 (sequential, no lookups): the two halves of every merge, in rank order.
    struct Pair {
      std::string_view a, b;
      std::int32_t la = -1, lb = -1, merged = -1;
    };
    std::vector<Pair> pairs;
    pairs.reserve(merges.size());
    for (auto item : merges) {
      std::string_view s;
      simdjson::dom::array pair;
      if (item.get_string().get(s) == simdjson::SUCCESS) {
        auto sp = s.find(' ');
        if (sp == std::string_view::npos)
          return fail("merge '" + std::string(s) + "' is not 'a b'", "model.merges");
        pairs.push_back({s.substr(0, sp), s.substr(sp + 1)});
      } else if (item.get_array().get(pair) == simdjson::SUCCESS && pair.size() == 2) {
        std::string_view x, y;
        if (pair.at(0).get_string().get(x) || pair.at(1).get_string().get(y))
          return fail("merge pair is not two strings", "model.merges");
        pairs.push_back({x, y});
      } else {
        return fail("merge entry is neither 'a b' nor [a, b]", "model.merges");
      }
    }
    // Pass 2 (parallel, read-only): vocabulary lookups, which are most of the load time.
    auto resolve = [&](std::size_t begin, std::size_t end) {
      std::string joined;
      for (std::size_t i = begin; i < end; ++i) {
        if (i + kAhead < end) {
          m->symbols_.prefetch(pairs[i + kAhead].a);
          m->symbols_.prefetch(pairs[i + kAhead].b);
        }
        Pair& p = pairs[i];
        p.la = m->symbols_.find(p.a);
        p.lb = m->symbols_.find(p.b);
        joined.assign(p.a).append(p.b);
        p.merged = m->symbols_.find(joined);
      }
    };
    const std::size_t half = pairs.size() / 2;
    {
      std::jthread other(resolve, half, pairs.size());
      resolve(0, half);
    }
    // Pass 3 (sequential, rank order): symbols missing from the vocabulary become phantoms in the
    // order a sequential load would create them, then the ranks are recorded.
    m->merges_.reserve(pairs.size());
    std::uint32_t rank = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (i + kAhead < pairs.size())
        m->merges_.prefetch(pairs[i + kAhead].la, pairs[i + kAhead].lb);
      Pair& p = pairs[i];
      if (p.la < 0) p.la = m->symbol_id(p.a);
      if (p.lb < 0) p.lb = m->symbol_id(p.b);
      if (p.merged < 0) p.merged = m->symbol_id(std::string(p.a).append(p.b));
      // The first occurrence of a pair wins, as in the reference implementations.
      m->merges_.insert(p.la, p.lb, Merge{rank++, p.merged});
    }
  }
  if (m->options_.unk_token) {
    if (auto id = m->vocab_id(*m->options_.unk_token); id >= 0) m->unk_id_ = id;
  }
  // Views into the index are taken last: its arena no longer grows.
  m->id_to_token_.assign(static_cast<std::size_t>(m->vocab_limit_), std::string_view());
  m->symbols_.for_each([&](std::string_view tok, std::int32_t id) {
    if (id < m->vocab_limit_) m->id_to_token_[static_cast<std::size_t>(id)] = tok;
  });
  for (std::size_t byte = 0; byte < 256; ++byte)
    m->byte_symbols_[byte] = m->find_symbol(byte_to_unicode()[byte]);
  for (int byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", byte);
    m->byte_fallback_ids_[static_cast<std::size_t>(byte)] = m->vocab_id(name);
  }
  return m;
}

std::optional<std::int32_t> BpeModel::token_to_id(std::string_view token) const {
  const std::int32_t id = vocab_id(token);
  if (id < 0) return std::nullopt;
  return id;
}

std::string_view BpeModel::id_to_token(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= id_to_token_.size()) return {};
  return id_to_token_[static_cast<std::size_t>(id)];
}

void BpeModel::emit_symbol(std::int32_t sym, std::string_view text,
                           std::vector<std::int32_t>& out) const {
  if (in_vocab(sym)) {
    out.push_back(sym);
    return;
  }
  if (options_.byte_fallback) {
    bool all = true;
    for (unsigned char b : text) all &= byte_fallback_ids_[b] >= 0;
    if (all) {
      for (unsigned char b : text) out.push_back(byte_fallback_ids_[b]);
      return;
    }
  }
  if (unk_id_) {
    if (options_.fuse_unk && !out.empty() && out.back() == *unk_id_) return;
    out.push_back(*unk_id_);
  }
}

void BpeModel::merge_word(std::string_view word, bool raw_bytes,
                          std::vector<std::int32_t>& out) const {
  struct Sym {
    std::int32_t id;  // symbol id, -1 for text the symbol table does not know
    std::int32_t prev, next;
    std::uint32_t begin, end;  // byte range of `word` the symbol covers
    bool alive;
  };
  std::vector<Sym> syms;
  syms.reserve(word.size());
  const bool affixes =
      !options_.continuing_subword_prefix.empty() || !options_.end_of_word_suffix.empty();
  std::size_t i = 0;
  while (i < word.size()) {
    const std::size_t start = i;
    std::int32_t id = -1;
    if (raw_bytes) {
      id = byte_symbols_[static_cast<unsigned char>(word[i])];
      ++i;
      const auto n = static_cast<std::int32_t>(syms.size());
      syms.push_back(Sym{id, n - 1, n + 1, static_cast<std::uint32_t>(start),
                         static_cast<std::uint32_t>(i), true});
      continue;
    }
    const char32_t cp = next_code_point(word, i);
    if (i > word.size()) i = word.size();
    if (!affixes) {
      if (auto it = char_symbols_.find(cp); it != char_symbols_.end()) id = it->second;
    } else {
      // Continuing-subword prefixes and the end-of-word suffix are part of the symbol text.
      std::string t(word.substr(start, i - start));
      if (start > 0) t = options_.continuing_subword_prefix + t;
      if (i >= word.size()) t += options_.end_of_word_suffix;
      id = find_symbol(t);
    }
    const auto n = static_cast<std::int32_t>(syms.size());
    syms.push_back(Sym{id, n - 1, n + 1, static_cast<std::uint32_t>(start),
                       static_cast<std::uint32_t>(i), true});
  }
  if (syms.empty()) return;
  syms.back().next = -1;

  struct Cand {
    std::uint32_t rank;
    std::int32_t pos;
    std::int32_t left, right;  // symbol ids when pushed, to detect stale entries
    bool operator>(const Cand& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<>> heap;
  auto consider = [&](std::int32_t pos) {
    if (pos < 0) return;
    const Sym& a = syms[static_cast<std::size_t>(pos)];
    if (a.next < 0 || a.id < 0) return;
    const Sym& b = syms[static_cast<std::size_t>(a.next)];
    if (b.id < 0) return;
    if (const Merge* m = merges_.find(a.id, b.id)) heap.push(Cand{m->rank, pos, a.id, b.id});
  };
  for (std::int32_t k = 0; k + 1 < static_cast<std::int32_t>(syms.size()); ++k) consider(k);
  while (!heap.empty()) {
    Cand c = heap.top();
    heap.pop();
    Sym& a = syms[static_cast<std::size_t>(c.pos)];
    if (!a.alive || a.id != c.left || a.next < 0) continue;
    Sym& b = syms[static_cast<std::size_t>(a.next)];
    if (!b.alive || b.id != c.right) continue;
    a.id = merges_.find(c.left, c.right)->merged;
    a.end = b.end;
    b.alive = false;
    a.next = b.next;
    if (b.next >= 0) syms[static_cast<std::size_t>(b.next)].prev = c.pos;
    consider(a.prev);
    consider(c.pos);
  }
  for (std::int32_t k = 0; k >= 0; k = syms[static_cast<std::size_t>(k)].next) {
    const Sym& sym = syms[static_cast<std::size_t>(k)];
    emit_symbol(sym.id, word.substr(sym.begin, sym.end - sym.begin), out);
  }
}

namespace {

// Where a slice of an over-long word ends: at most `max` bytes, before the last word start
// ("\xE2\x96\x81" or ' ' after another character) in the slice's second half, else on a code
// point boundary.
std::size_t merge_slice_end(std::string_view s, std::size_t max) {
  const std::size_t end = utf8_prefix(s, max);
  if (end == s.size()) return end;
  static constexpr std::string_view kMetaspace = "\xE2\x96\x81";
  for (std::size_t i = end; i > max / 2; --i) {
    const std::string_view at = s.substr(i);
    const bool starts_word = at.starts_with(kMetaspace) || at.front() == ' ';
    const std::string_view before = s.substr(0, i);
    const bool after_space = before.ends_with(kMetaspace) || before.back() == ' ';
    if (starts_word && !after_space) return i;
  }
  return end;
}

}  // namespace

void BpeModel::cached(std::string_view word, bool raw_bytes, std::vector<std::int32_t>& out) const {
  if (word.size() > kMaxMergeWordBytes) {
    // Merging takes O(n log n) time and tens of bytes per byte of the word: one 100 MB "word" (a
    // response without whitespace) took 4.8 GB. Slices keep both per slice. Models without a
    // whitespace pre-tokenizer (llama2's Metaspace) see a whole prompt as one word, so a slice
    // ends before a word start where there is one: no merge crosses it, and the count stays exact.
    for (std::string_view rest = word; !rest.empty();) {
      const std::size_t cut = merge_slice_end(rest, kMaxMergeWordBytes);
      cached(rest.substr(0, cut), raw_bytes, out);
      rest.remove_prefix(cut);
    }
    return;
  }
  WordCache& cache = raw_bytes ? raw_cache_ : cache_;
  auto append = [&](const std::int32_t* ids, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::int32_t id = ids[k];
      if (options_.fuse_unk && unk_id_ && id == *unk_id_ && !out.empty() && out.back() == *unk_id_)
        continue;
      out.push_back(id);
    }
  };
  const bool cacheable = word.size() <= kMaxCachedWordBytes;
  if (cacheable) {
    if (const auto hit = cache.find(word); hit.found) {
      append(hit.ids.data(), hit.ids.size());
      return;
    }
  }
  std::vector<std::int32_t> ids;
  if (raw_bytes && options_.ignore_merges) {
    if (auto id = vocab_id(bytes_to_byte_level(word)); id >= 0) ids.push_back(id);
  }
  if (ids.empty()) merge_word(word, raw_bytes, ids);
  append(ids.data(), ids.size());
  if (cacheable) cache.insert(word, ids);
}

void BpeModel::tokenize(std::string_view word, std::vector<std::int32_t>& out) const {
  if (word.empty()) return;
  if (options_.ignore_merges) {
    if (auto id = vocab_id(word); id >= 0) {
      out.push_back(id);
      return;
    }
  }
  cached(word, false, out);
}

void BpeModel::tokenize_byte_level(std::string_view raw, std::vector<std::int32_t>& out) const {
  if (raw.empty()) return;
  // ignore_merges is resolved on a cache miss (cached()): the word cache answers repeated words
  // without mapping them to byte-level text first.
  cached(raw, true, out);
}

}  // namespace inferperf::tokenizer
