// The tokenizers' regular expressions (hf_regex.h): a parser to a small tree, the tree compiled
// to a program of four instructions (a class, a choice, a jump, a lookahead), and a backtracking
// run of that program with an explicit stack.
#include "model/tokenizer/hf_regex.h"

#include <array>
#include <cstdio>

#include "engine/text/tokenizer.h"  // DecodeUtf8
#include "model/tokenizer/unicode_classes.h"

namespace attn {
namespace model {

namespace {

constexpr int kMaxRepeat = 1000;      // {n,m}: the real files use {1,3}
constexpr int kMaxDepth = 100;        // nested groups
constexpr std::size_t kMaxProgram = 1 << 16;

constexpr std::uint32_t Bit(Gc c) { return 1u << static_cast<unsigned>(c); }

// A General_Category name as the mask of its values; 0 when unknown.
std::uint32_t CategoryMask(const std::string& name) {
  struct Named {
    const char* name;
    std::uint32_t mask;
  };
  static const Named kNames[] = {
      {"L", Bit(Gc::Lu) | Bit(Gc::Ll) | Bit(Gc::Lt) | Bit(Gc::Lm) | Bit(Gc::Lo)},
      {"Lu", Bit(Gc::Lu)}, {"Ll", Bit(Gc::Ll)}, {"Lt", Bit(Gc::Lt)}, {"Lm", Bit(Gc::Lm)}, {"Lo", Bit(Gc::Lo)},
      {"M", Bit(Gc::Mn) | Bit(Gc::Mc) | Bit(Gc::Me)}, {"Mn", Bit(Gc::Mn)}, {"Mc", Bit(Gc::Mc)}, {"Me", Bit(Gc::Me)},
      {"N", Bit(Gc::Nd) | Bit(Gc::Nl) | Bit(Gc::No)}, {"Nd", Bit(Gc::Nd)}, {"Nl", Bit(Gc::Nl)}, {"No", Bit(Gc::No)},
      {"P", Bit(Gc::Pc) | Bit(Gc::Pd) | Bit(Gc::Ps) | Bit(Gc::Pe) | Bit(Gc::Pi) | Bit(Gc::Pf) | Bit(Gc::Po)},
      {"Pc", Bit(Gc::Pc)}, {"Pd", Bit(Gc::Pd)}, {"Ps", Bit(Gc::Ps)}, {"Pe", Bit(Gc::Pe)}, {"Pi", Bit(Gc::Pi)},
      {"Pf", Bit(Gc::Pf)}, {"Po", Bit(Gc::Po)},
      {"S", Bit(Gc::Sm) | Bit(Gc::Sc) | Bit(Gc::Sk) | Bit(Gc::So)},
      {"Sm", Bit(Gc::Sm)}, {"Sc", Bit(Gc::Sc)}, {"Sk", Bit(Gc::Sk)}, {"So", Bit(Gc::So)},
      {"Z", Bit(Gc::Zs) | Bit(Gc::Zl) | Bit(Gc::Zp)}, {"Zs", Bit(Gc::Zs)}, {"Zl", Bit(Gc::Zl)}, {"Zp", Bit(Gc::Zp)},
      {"C", Bit(Gc::Cc) | Bit(Gc::Cf) | Bit(Gc::Cs) | Bit(Gc::Co) | Bit(Gc::Cn)},
      {"Cc", Bit(Gc::Cc)}, {"Cf", Bit(Gc::Cf)}, {"Cs", Bit(Gc::Cs)}, {"Co", Bit(Gc::Co)}, {"Cn", Bit(Gc::Cn)},
  };
  for (const Named& n : kNames)
    if (name == n.name) return n.mask;
  return 0;
}

// The category of a code point, ASCII from a table (most of the text), the rest by search.
Gc CategoryOf(char32_t cp) {
  static const std::array<Gc, 128> kAscii = [] {
    std::array<Gc, 128> t{};
    for (char32_t c = 0; c < 128; ++c) t[c] = GeneralCategory(c);
    return t;
  }();
  return cp < 128 ? kAscii[cp] : GeneralCategory(cp);
}

bool IsAsciiLetter(char32_t cp) { return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z'; }

int HexValue(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return static_cast<int>((c | 0x20) - 'a' + 10);
  return -1;
}

}  // namespace

// The pattern read into a tree, then written as the program.
class HfRegexParser {
 public:
  HfRegexParser(const std::vector<char32_t>& p, HfRegex* re) : p_(p), re_(re) {}

  bool Parse(std::string* error) {
    const int root = ParseAlt(0);
    if (error_.empty() && at_ < p_.size()) Refuse(") without its (");
    if (error_.empty()) {
      re_->program_.clear();
      Emit(root);
      Add({HfRegex::kMatch, false, 0, 0});
      for (std::size_t k = 0; k < looks_.size() && error_.empty(); ++k) {  // looks_ grows as it goes
        re_->program_[static_cast<std::size_t>(looks_[k].second)].x = static_cast<int>(re_->program_.size());
        Emit(looks_[k].first);
        Add({HfRegex::kMatch, false, 0, 0});
      }
    }
    if (!error_.empty()) {
      if (error) *error = error_;
      return false;
    }
    return true;
  }

 private:
  struct Node {
    enum Kind { kEmpty, kClass, kConcat, kAlt, kRepeat, kLook } kind;
    explicit Node(Kind k) : kind(k) {}
    int cls = -1;
    std::vector<int> kids;
    int min = 0, max = 0;  // kRepeat: max -1 = unbounded
    bool greedy = true, negate = false, nullable = false;
  };

  void Refuse(const std::string& what) {
    if (error_.empty()) error_ = what + " (at character " + std::to_string(at_ + 1) + " of the pattern)";
  }
  bool More() const { return at_ < p_.size(); }
  char32_t Peek(std::size_t ahead = 0) const { return at_ + ahead < p_.size() ? p_[at_ + ahead] : 0; }
  int AddNode(Node n) {
    nodes_.push_back(std::move(n));
    return static_cast<int>(nodes_.size()) - 1;
  }
  int AddClass(HfRegex::Class c) {
    re_->classes_.push_back(std::move(c));
    Node n(Node::kClass);
    n.cls = static_cast<int>(re_->classes_.size()) - 1;
    return AddNode(std::move(n));
  }
  static HfRegex::ClassItem Literal(char32_t cp) { return {HfRegex::ClassItem::kRange, false, cp, cp, 0}; }

  int ParseAlt(int depth) {
    if (depth > kMaxDepth) {
      Refuse("groups nested more than " + std::to_string(kMaxDepth) + " deep");
      return AddNode(Node(Node::kEmpty));
    }
    std::vector<int> kids{ParseConcat(depth)};
    while (error_.empty() && Peek() == '|' && More()) {
      ++at_;
      kids.push_back(ParseConcat(depth));
    }
    if (kids.size() == 1) return kids[0];
    Node n(Node::kAlt);
    for (int k : kids) n.nullable = n.nullable || nodes_[static_cast<std::size_t>(k)].nullable;
    n.kids = std::move(kids);
    return AddNode(std::move(n));
  }

  int ParseConcat(int depth) {
    Node n(Node::kConcat);
    n.nullable = true;
    while (error_.empty() && More() && Peek() != '|' && Peek() != ')') {
      const int k = ParseRepeat(depth);
      n.nullable = n.nullable && nodes_[static_cast<std::size_t>(k)].nullable;
      n.kids.push_back(k);
    }
    if (n.kids.size() == 1) return n.kids[0];
    if (n.kids.empty()) n.kind = Node::kEmpty;
    return AddNode(std::move(n));
  }

  // {n}, {n,}, {n,m}, {,m} at at_: true and the bounds, else false (then '{' is a literal).
  bool Braces(int* min, int* max, std::size_t* length) const {
    std::size_t i = at_ + 1;
    auto number = [&](int* v) {
      const std::size_t start = i;
      long long value = 0;
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9' && value <= kMaxRepeat + 1) value = value * 10 + (p_[i++] - '0');
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9') ++i;  // a huge count: refused below
      *v = static_cast<int>(value > kMaxRepeat ? kMaxRepeat + 1 : value);
      return i > start;
    };
    const bool has_min = number(min);
    if (!has_min) *min = 0;
    if (i < p_.size() && p_[i] == '}') {
      if (!has_min) return false;
      *max = *min;
    } else if (i < p_.size() && p_[i] == ',') {
      ++i;
      if (!number(max)) {
        if (!has_min) return false;
        *max = -1;
      }
      if (i >= p_.size() || p_[i] != '}') return false;
    } else {
      return false;
    }
    *length = i + 1 - at_;
    return true;
  }

  int ParseRepeat(int depth) {
    int atom = ParseAtom(depth);
    bool quantified = false;
    while (error_.empty() && More()) {
      int min, max;
      std::size_t length = 1;
      const char32_t c = Peek();
      if (c == '*') { min = 0; max = -1; }
      else if (c == '+') { min = 1; max = -1; }
      else if (c == '?') { min = 0; max = 1; }
      else if (c != '{' || !Braces(&min, &max, &length)) break;
      if (quantified) {
        Refuse("a quantifier right after another (possessive or nested quantifiers) is not supported");
        break;
      }
      if (min > kMaxRepeat || max > kMaxRepeat) {
        Refuse("a repetition count above " + std::to_string(kMaxRepeat) + " is not supported");
        break;
      }
      if (max >= 0 && min > max) {
        Refuse("the repetition {" + std::to_string(min) + "," + std::to_string(max) + "} is out of order");
        break;
      }
      at_ += length;
      Node n(Node::kRepeat);
      n.kids = {atom};
      n.min = min;
      n.max = max;
      if (Peek() == '?' && More()) {
        n.greedy = false;
        ++at_;
      }
      const bool inner_nullable = nodes_[static_cast<std::size_t>(atom)].nullable;
      if (max < 0 && inner_nullable) {
        Refuse("an unbounded repetition of something that can match nothing is not supported");
        break;
      }
      n.nullable = min == 0 || inner_nullable;
      atom = AddNode(std::move(n));
      quantified = true;
    }
    return atom;
  }

  int ParseAtom(int depth) {
    const char32_t c = Peek();
    if (c == '(') {
      const std::size_t open = at_;
      ++at_;
      bool fold = fold_, look = false, negate = false;
      if (Peek() == '?') {
        const char32_t k = Peek(1);
        if (k == ':') {
          at_ += 2;
        } else if (k == 'i' && Peek(2) == ':') {
          at_ += 3;
          fold = true;
        } else if (k == '=' || k == '!') {
          at_ += 2;
          look = true;
          negate = k == '!';
        } else {
          at_ = open;
          Refuse(std::string("the group \"(?") + (k < 0x80 && k >= 0x20 ? std::string(1, static_cast<char>(k)) : "") +
                 "\" is not supported");
          return AddNode(Node(Node::kEmpty));
        }
      }
      const bool outer_fold = fold_;
      fold_ = fold;
      const int inner = ParseAlt(depth + 1);
      fold_ = outer_fold;
      if (!error_.empty()) return inner;
      if (Peek() != ')' || !More()) {
        at_ = open;
        Refuse("( is never closed");
        return inner;
      }
      ++at_;
      if (!look) return inner;
      Node n(Node::kLook);
      n.kids = {inner};
      n.negate = negate;
      n.nullable = true;
      return AddNode(std::move(n));
    }
    if (c == '[') return ParseClass();
    if (c == '.') {
      ++at_;
      HfRegex::Class dot;
      dot.negate = true;
      dot.items.push_back(Literal('\n'));
      return AddClass(std::move(dot));
    }
    if (c == '^' || c == '$') {
      Refuse(std::string("the anchor ") + static_cast<char>(c) + " is not supported");
      return AddNode(Node(Node::kEmpty));
    }
    if (c == '*' || c == '+' || c == '?') {
      Refuse(std::string(1, static_cast<char>(c)) + " with nothing to repeat");
      return AddNode(Node(Node::kEmpty));
    }
    HfRegex::Class one;
    one.fold = fold_;
    if (c == '\\') {
      HfRegex::ClassItem item;
      if (!ParseEscape(&item)) return AddNode(Node(Node::kEmpty));
      one.items.push_back(item);
    } else {
      ++at_;
      one.items.push_back(Literal(c));
    }
    return AddClass(std::move(one));
  }

  // An escape at at_ (the backslash) as one class item; false after a refusal.
  bool ParseEscape(HfRegex::ClassItem* item) {
    const std::size_t start = at_;
    ++at_;
    if (!More()) {
      Refuse("the pattern ends with a backslash");
      return false;
    }
    const char32_t c = p_[at_++];
    switch (c) {
      case 'n': *item = Literal('\n'); return true;
      case 'r': *item = Literal('\r'); return true;
      case 't': *item = Literal('\t'); return true;
      case 'f': *item = Literal('\f'); return true;
      case 'v': *item = Literal('\v'); return true;
      case 'a': *item = Literal(0x07); return true;
      case 'e': *item = Literal(0x1B); return true;
      case 's': case 'S':
        *item = {HfRegex::ClassItem::kSpace, c == 'S', 0, 0, 0};
        return true;
      case 'd': case 'D':
        *item = {HfRegex::ClassItem::kCategories, c == 'D', 0, 0, Bit(Gc::Nd)};
        return true;
      case 'x': case 'u': {
        std::uint32_t value = 0;
        int digits = 0;
        const bool braced = c == 'x' && Peek() == '{';
        if (braced) ++at_;
        const int most = braced ? 8 : c == 'x' ? 2 : 4;
        while (digits < most && More() && HexValue(Peek()) >= 0) {
          value = value * 16 + static_cast<std::uint32_t>(HexValue(p_[at_++]));
          ++digits;
        }
        if (braced && (Peek() != '}' || !More())) digits = 0;
        if (braced) ++at_;
        if (digits == 0 || (c == 'u' && digits != 4) || value > 0x10FFFF) {
          at_ = start;
          Refuse(std::string("the escape \\") + static_cast<char>(c) + " is not a valid code point");
          return false;
        }
        *item = Literal(static_cast<char32_t>(value));
        return true;
      }
      case 'p': case 'P': {
        std::string name;
        if (Peek() == '{') {
          ++at_;
          while (More() && Peek() != '}' && name.size() < 40) {
            const char32_t n = p_[at_++];
            name += n >= 0x20 && n < 0x7F ? static_cast<char>(n) : '?';  // the message stays one printable line
          }
          if (Peek() == '}' && More()) ++at_;
          else name = "";
        }
        const std::uint32_t mask = CategoryMask(name);
        if (mask == 0) {
          at_ = start;
          Refuse("the class \\" + std::string(1, static_cast<char>(c)) + "{" + name +
                 "} is not supported (only General_Category names such as L, Lu, N, P)");
          return false;
        }
        *item = {HfRegex::ClassItem::kCategories, c == 'P', 0, 0, mask};
        return true;
      }
      default:
        if (c < 0x80 && ((c >= '0' && c <= '9') || IsAsciiLetter(c))) {
          at_ = start;
          Refuse(std::string("the escape \\") + static_cast<char>(c) + " is not supported");
          return false;
        }
        *item = Literal(c);  // escaped punctuation, or any other character as itself
        return true;
    }
  }

  int ParseClass() {
    const std::size_t open = at_;
    ++at_;
    HfRegex::Class cls;
    cls.fold = fold_;
    if (Peek() == '^' && More()) {
      cls.negate = true;
      ++at_;
    }
    bool first = true;
    while (error_.empty()) {
      if (!More()) {
        at_ = open;
        Refuse("[ is never closed");
        break;
      }
      const char32_t c = Peek();
      if (c == ']' && !first) {
        ++at_;
        break;
      }
      first = false;
      if (c == '[') {
        Refuse("a class inside a class (or a POSIX class) is not supported");
        break;
      }
      if (c == '&' && Peek(1) == '&') {
        Refuse("a class intersection && is not supported");
        break;
      }
      HfRegex::ClassItem item;
      if (c == '\\') {
        if (!ParseEscape(&item)) break;
      } else {
        item = Literal(c);
        ++at_;
      }
      const bool literal = item.kind == HfRegex::ClassItem::kRange && item.lo == item.hi;
      if (literal && Peek() == '-' && at_ + 1 < p_.size() && Peek(1) != ']') {
        ++at_;
        HfRegex::ClassItem hi;
        if (Peek() == '\\') {
          if (!ParseEscape(&hi)) break;
        } else {
          hi = Literal(Peek());
          ++at_;
        }
        if (hi.kind != HfRegex::ClassItem::kRange || hi.lo != hi.hi) {
          Refuse("a range ending in a class is not supported");
          break;
        }
        if (hi.lo < item.lo) {
          Refuse("the range's end comes before its start");
          break;
        }
        item.hi = hi.lo;
      }
      cls.items.push_back(item);
    }
    return AddClass(std::move(cls));
  }

  void Add(HfRegex::Inst in) {
    if (re_->program_.size() >= kMaxProgram) {
      Refuse("the pattern is too long once its repetitions are written out");
      return;
    }
    re_->program_.push_back(in);
  }
  int Here() const { return static_cast<int>(re_->program_.size()); }

  void Emit(int id) {
    if (!error_.empty()) return;
    const Node& n = nodes_[static_cast<std::size_t>(id)];
    switch (n.kind) {
      case Node::kEmpty:
        return;
      case Node::kClass:
        Add({HfRegex::kClass, false, n.cls, 0});
        return;
      case Node::kConcat:
        for (int k : n.kids) Emit(k);
        return;
      case Node::kAlt: {
        std::vector<int> jumps;
        for (std::size_t k = 0; k < n.kids.size() && error_.empty(); ++k) {
          if (k + 1 == n.kids.size()) {
            Emit(n.kids[k]);
            break;
          }
          const int split = Here();
          Add({HfRegex::kSplit, false, split + 1, 0});
          Emit(n.kids[k]);
          jumps.push_back(Here());
          Add({HfRegex::kJmp, false, 0, 0});
          if (!error_.empty()) return;
          re_->program_[static_cast<std::size_t>(split)].y = Here();
        }
        if (!error_.empty()) return;
        for (int j : jumps) re_->program_[static_cast<std::size_t>(j)].x = Here();
        return;
      }
      case Node::kRepeat: {
        const int kid = n.kids[0];
        const int min = n.min, max = n.max;
        const bool greedy = n.greedy;
        for (int k = 0; k < min && error_.empty(); ++k) Emit(kid);
        if (max < 0) {
          const int loop = Here();
          Add({HfRegex::kSplit, false, 0, 0});
          Emit(kid);
          Add({HfRegex::kJmp, false, loop, 0});
          if (!error_.empty()) return;
          auto& s = re_->program_[static_cast<std::size_t>(loop)];
          s.x = greedy ? loop + 1 : Here();
          s.y = greedy ? Here() : loop + 1;
          return;
        }
        std::vector<int> splits;
        for (int k = min; k < max && error_.empty(); ++k) {
          splits.push_back(Here());
          Add({HfRegex::kSplit, false, 0, 0});
          Emit(kid);
        }
        if (!error_.empty()) return;
        for (int s : splits) {
          auto& in = re_->program_[static_cast<std::size_t>(s)];
          in.x = greedy ? s + 1 : Here();
          in.y = greedy ? Here() : s + 1;
        }
        return;
      }
      case Node::kLook:
        looks_.emplace_back(n.kids[0], Here());
        Add({HfRegex::kLook, n.negate, 0, 0});
        return;
    }
  }

  const std::vector<char32_t>& p_;
  HfRegex* re_;
  std::size_t at_ = 0;
  bool fold_ = false;
  std::vector<Node> nodes_;
  std::vector<std::pair<int, int>> looks_;  // (sub-pattern, its kLook instruction)
  std::string error_;
};

bool HfRegex::Compile(std::string_view pattern, std::string* error) {
  std::vector<char32_t> cps;
  for (std::size_t pos = 0; pos < pattern.size();) {
    char32_t cp;
    const std::size_t at = pos;
    if (!DecodeUtf8(pattern, pos, cp)) {
      if (error) *error = "the pattern is not valid UTF-8 (byte " + std::to_string(at) + ")";
      return false;
    }
    cps.push_back(cp);
  }
  HfRegex next;
  HfRegexParser parser(cps, &next);
  if (!parser.Parse(error)) return false;
  *this = std::move(next);
  return true;
}

bool HfRegex::Matches(const Class& c, char32_t cp) const {
  const auto raw = [&](char32_t x) {
    for (const ClassItem& item : c.items) {
      bool m;
      switch (item.kind) {
        case ClassItem::kRange: m = x >= item.lo && x <= item.hi; break;
        case ClassItem::kCategories: m = (item.mask >> static_cast<unsigned>(CategoryOf(x))) & 1u; break;
        default: m = IsWhiteSpace(x); break;
      }
      if (m != item.negate) return true;
    }
    return false;
  };
  bool hit = raw(cp);
  if (!hit && c.fold && cp < 0x80 && IsAsciiLetter(cp)) hit = raw(cp ^ 0x20);
  return hit != c.negate;
}

bool HfRegex::Run(int pc0, const std::vector<char32_t>& text, std::size_t pos0, std::size_t* end,
                  long long* budget) const {
  std::vector<std::pair<int, std::size_t>> stack;  // the choices not taken: (instruction, position)
  stack.emplace_back(pc0, pos0);
  while (!stack.empty()) {
    int pc = stack.back().first;
    std::size_t pos = stack.back().second;
    stack.pop_back();
    while (true) {
      if (--*budget < 0) return false;
      const Inst& in = program_[static_cast<std::size_t>(pc)];
      if (in.op == kClass) {
        if (pos < text.size() && Matches(classes_[static_cast<std::size_t>(in.x)], text[pos])) {
          ++pc;
          ++pos;
          continue;
        }
        break;  // this way fails: the last choice not taken
      }
      if (in.op == kJmp) {
        pc = in.x;
        continue;
      }
      if (in.op == kSplit) {
        stack.emplace_back(in.y, pos);
        pc = in.x;
        continue;
      }
      if (in.op == kLook) {
        std::size_t ignored;
        const bool matched = Run(in.x, text, pos, &ignored, budget);
        if (*budget < 0) return false;
        if (matched == in.negate) break;
        ++pc;
        continue;
      }
      *end = pos;  // kMatch
      return true;
    }
  }
  return false;
}

bool HfRegex::Find(const std::vector<char32_t>& text, std::size_t from, std::size_t* begin, std::size_t* end,
                   long long* budget, bool* gave_up) const {
  *gave_up = false;
  if (program_.empty()) return false;
  for (std::size_t start = from; start <= text.size(); ++start) {
    if (Run(0, text, start, end, budget)) {
      *begin = start;
      return true;
    }
    if (*budget < 0) {
      *gave_up = true;
      return false;
    }
  }
  return false;
}

}  // namespace model
}  // namespace attn
