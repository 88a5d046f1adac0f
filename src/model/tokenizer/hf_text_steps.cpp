// Normalizers and pre-tokenizers of a tokenizer.json (hf_text_steps.h), each written after the
// tokenizers library's Rust code (normalizers/, pre_tokenizers/, NormalizedString::split).
#include "model/tokenizer/hf_text_steps.h"

#include <algorithm>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/gpt2_bpe.h"
#include "model/tokenizer/gpt2_pretokenizer.h"
#include "model/tokenizer/unicode_nfc.h"

namespace attn {
namespace model {

namespace {

using Range = std::pair<std::size_t, std::size_t>;

void AppendSymbolUtf8(char32_t cp, std::string* out) {  // a byte's stand-in: below U+0800
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// GPT-2's byte symbols for every byte of `bytes` (gpt2_bpe.h).
std::string ByteSymbols(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) AppendSymbolUtf8(Gpt2ByteSymbol(static_cast<unsigned char>(c)), &out);
  return out;
}

std::string ReplaceAll(const std::string& text, const std::vector<Range>& found, const std::string& content) {
  std::string out;
  std::size_t at = 0;
  for (const Range& r : found) {
    out.append(text, at, r.first - at);
    out += content;
    at = r.second;
  }
  out.append(text, at, std::string::npos);
  return out;
}

}  // namespace

bool HfTextSteps::Compile(const HfTokenizerSpec& spec, std::string* error) {
  name_ = spec.name;
  normalizers_ = spec.normalizers;
  pre_ = spec.pre_tokenizers;
  normalizer_regex_.assign(normalizers_.size(), HfRegex());
  pre_regex_.assign(pre_.size(), HfRegex());
  const auto compile = [&](const HfPattern& p, const std::string& where, HfRegex* re) {
    std::string why;
    if (!p.regex) return true;
    if (re->Compile(p.text, &why)) return true;
    if (error) *error = name_ + ": " + where + ".pattern: " + why;
    return false;
  };
  for (std::size_t i = 0; i < normalizers_.size(); ++i)
    if (normalizers_[i].kind == HfNormalizer::Kind::kReplace &&
        !compile(normalizers_[i].pattern, normalizers_[i].where, &normalizer_regex_[i]))
      return false;
  for (std::size_t i = 0; i < pre_.size(); ++i)
    if (pre_[i].kind == HfPreTokenizer::Kind::kSplit && !compile(pre_[i].pattern, pre_[i].where, &pre_regex_[i]))
      return false;
  return true;
}

bool HfTextSteps::Matches(const HfPattern& pattern, const HfRegex& regex, const std::string& text,
                          std::vector<Range>* found, const std::string& where, std::string* error) const {
  found->clear();
  if (!pattern.regex) {  // a literal: its occurrences left to right (never empty: the reader checks)
    for (std::size_t at = text.find(pattern.text); at != std::string::npos; at = text.find(pattern.text, at)) {
      found->emplace_back(at, at + pattern.text.size());
      at += pattern.text.size();
    }
    return true;
  }
  std::vector<char32_t> cps;
  std::vector<std::size_t> offset;  // byte offset of each code point, and the end
  for (std::size_t pos = 0; pos < text.size();) {
    offset.push_back(pos);
    char32_t cp;
    if (!DecodeUtf8(text, pos, cp)) {  // never: the text is valid UTF-8 (Encode checks)
      cp = 0xFFFD;
      pos = offset.back() + 1;
    }
    cps.push_back(cp);
  }
  offset.push_back(text.size());
  long long budget = HfRegex::Budget(cps.size());
  std::size_t from = 0, begin, end;
  bool gave_up = false;
  while (from <= cps.size() && regex.Find(cps, from, &begin, &end, &budget, &gave_up)) {
    if (end == begin) {  // an empty match splits nothing: look again one character on
      from = begin + 1;
      continue;
    }
    found->emplace_back(offset[begin], offset[end]);
    from = end;
  }
  if (gave_up) {
    if (error) *error = name_ + ": " + where + ".pattern gives up on this text (too much backtracking)";
    return false;
  }
  return true;
}

bool HfTextSteps::Normalize(std::string* text, std::string* error) const {
  std::vector<Range> found;
  for (std::size_t i = 0; i < normalizers_.size(); ++i) {
    const HfNormalizer& n = normalizers_[i];
    switch (n.kind) {
      case HfNormalizer::Kind::kPrepend:
        if (!text->empty()) *text = n.prepend + *text;  // the library prepends to non-empty text only
        break;
      case HfNormalizer::Kind::kReplace:
        if (!Matches(n.pattern, normalizer_regex_[i], *text, &found, n.where, error)) return false;
        if (!found.empty()) *text = ReplaceAll(*text, found, n.content);
        break;
      case HfNormalizer::Kind::kNfc:
        *text = Nfc(*text);
        break;
    }
  }
  return true;
}

// NormalizedString::split: the text as matches and the stretches between, flagged, then joined
// as the behaviour says; empty pieces are dropped (PreTokenizedString::split).
bool HfTextSteps::Split(const HfPreTokenizer& step, const HfRegex& regex, const HfPiece& piece,
                        std::vector<HfPiece>* out, std::string* error) const {
  std::vector<Range> found;
  if (!Matches(step.pattern, regex, piece.text, &found, step.where, error)) return false;
  struct Part {
    Range r;
    bool match;
  };
  std::vector<Part> parts;
  std::size_t at = 0;
  for (const Range& r : found) {
    if (r.first > at) parts.push_back({{at, r.first}, false});
    parts.push_back({r, true});
    at = r.second;
  }
  if (at < piece.text.size()) parts.push_back({{at, piece.text.size()}, false});
  if (step.invert)
    for (Part& p : parts) p.match = !p.match;

  std::vector<Range> pieces;
  bool previous_match = false;
  switch (step.behavior) {
    case HfSplitBehavior::kRemoved:
      for (const Part& p : parts)
        if (!p.match) pieces.push_back(p.r);
      break;
    case HfSplitBehavior::kIsolated:
      for (const Part& p : parts) pieces.push_back(p.r);
      break;
    case HfSplitBehavior::kMergedWithPrevious:  // a match joins the stretch before it
      for (const Part& p : parts) {
        if (p.match && !previous_match && !pieces.empty()) pieces.back().second = p.r.second;
        else pieces.push_back(p.r);
        previous_match = p.match;
      }
      break;
    case HfSplitBehavior::kMergedWithNext:  // a match joins the stretch after it
      for (std::size_t k = parts.size(); k-- > 0;) {
        const Part& p = parts[k];
        if (p.match && !previous_match && !pieces.empty()) pieces.back().first = p.r.first;
        else pieces.push_back(p.r);
        previous_match = p.match;
      }
      std::reverse(pieces.begin(), pieces.end());
      break;
    case HfSplitBehavior::kContiguous:  // neighbours of the same kind join
      for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k > 0 && parts[k].match == parts[k - 1].match) pieces.back().second = parts[k].r.second;
        else pieces.push_back(parts[k].r);
      }
      break;
  }
  for (const Range& r : pieces)
    if (r.second > r.first) out->push_back({piece.text.substr(r.first, r.second - r.first), piece.at_start && r.first == 0});
  return true;
}

bool HfTextSteps::PreTokenize(std::vector<HfPiece>* pieces, std::string* error) const {
  std::vector<HfPiece> next;
  std::vector<Chunk> chunks;
  for (std::size_t i = 0; i < pre_.size(); ++i) {
    const HfPreTokenizer& step = pre_[i];
    next.clear();
    for (HfPiece& piece : *pieces) {
      switch (step.kind) {
        case HfPreTokenizer::Kind::kByteLevel: {
          std::string text = std::move(piece.text);
          if (step.add_prefix_space && (text.empty() || text[0] != ' ')) text.insert(text.begin(), ' ');
          if (!step.use_regex) {
            next.push_back({ByteSymbols(text), piece.at_start});
            break;
          }
          if (!Gpt2PreTokenize(text, &chunks, error)) return false;  // valid UTF-8: cannot fail
          for (const Chunk& c : chunks)
            next.push_back({ByteSymbols(std::string_view(text).substr(c.begin, c.end - c.begin)),
                            piece.at_start && c.begin == 0});
          break;
        }
        case HfPreTokenizer::Kind::kSplit:
          if (!Split(step, pre_regex_[i], piece, &next, error)) return false;
          break;
        case HfPreTokenizer::Kind::kMetaspace: {
          std::string text;
          for (const char c : piece.text) {
            if (c == ' ') text += step.replacement;
            else text.push_back(c);
          }
          const bool starts = text.compare(0, step.replacement.size(), step.replacement) == 0;
          if (!starts && (step.prepend == HfPreTokenizer::Prepend::kAlways ||
                          (step.prepend == HfPreTokenizer::Prepend::kFirst && piece.at_start)))
            text = step.replacement + text;
          if (!step.split) {
            next.push_back({std::move(text), piece.at_start});
            break;
          }
          // split on the replacement, each one joining the piece after it (MergedWithNext)
          std::size_t from = 0;
          for (std::size_t at = text.find(step.replacement, 1); at != std::string::npos;
               at = text.find(step.replacement, at + step.replacement.size())) {
            if (at > from) next.push_back({text.substr(from, at - from), piece.at_start && from == 0});
            from = at;
          }
          if (from < text.size()) next.push_back({text.substr(from), piece.at_start && from == 0});
          break;
        }
      }
    }
    pieces->swap(next);
    pieces->erase(std::remove_if(pieces->begin(), pieces->end(), [](const HfPiece& p) { return p.text.empty(); }),
                  pieces->end());
  }
  return true;
}

}  // namespace model
}  // namespace attn
