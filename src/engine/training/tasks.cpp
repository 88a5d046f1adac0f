// The training tasks (tasks.h): vocabularies, grammars, sampling and labelling.
#include "engine/training/tasks.h"

#include "engine/base/names.h"
#include "engine/linalg/linalg.h"  // Fail
#include "engine/text/tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace attn {

namespace {

// ---- vocabularies ---------------------------------------------------------------------------

const char* const kLetters[] = {"a", "b", "c", "d", "e", "f", "g", "h",
                                "i", "j", "k", "l", "m", "n", "o", "p"};
const char* const kDigits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
// The default examples: distinct letters (so the right key is the only copy of the token it
// predicts), and digits with one largest digit at every prefix length.
const char* const kLetterExample[] = {"h", "c", "a", "f", "d", "b", "g", "e",
                                      "k", "m", "j", "p", "i", "n", "l", "o"};
const char* const kDigitExample[] = {"3", "1", "4", "0", "5", "9", "2", "6",
                                     "5", "3", "5", "8", "2", "7", "1", "3"};

// verb_object: "subject [adverb] verb [adjective] object", English and Russian. Every verb can
// take every object, so the verb alone tells nothing about its object: attention must find it.
struct Grammar {
  std::vector<std::string> subjects;  // RU: one verb form per subject (same index)
  std::vector<std::string> adverbs;
  std::vector<std::vector<std::string>> verbs;  // [verb][subject]
  std::vector<std::string> adjectives;
  std::vector<std::string> objects;
};
const Grammar& English() {
  static const Grammar g{{"I", "you", "we", "they"},
                         {"really", "also"},
                         {{"love", "love", "love", "love"},
                          {"like", "like", "like", "like"},
                          {"want", "want", "want", "want"}},
                         {"hot", "fresh"},
                         {"sushi", "tea", "coffee", "rice", "soup", "bread"}};
  return g;
}
const Grammar& Russian() {
  static const Grammar g{{"я", "ты", "мы", "они"},
                         {"очень", "тоже"},
                         {{"люблю", "любишь", "любим", "любят"},
                          {"хочу", "хочешь", "хотим", "хотят"}},
                         {},
                         {"суши", "чай", "кофе", "рис", "суп", "хлеб"}};
  return g;
}

enum class WordClass { kOther, kVerb, kObject };

int IndexOf(const std::vector<std::string>& vocab, const std::string& word) {
  const auto it = std::find(vocab.begin(), vocab.end(), word);
  return it == vocab.end() ? -1 : static_cast<int>(it - vocab.begin());
}

void AddUnique(std::vector<std::string>& vocab, const std::string& word) {
  if (IndexOf(vocab, word) < 0) vocab.push_back(word);
}

WordClass ClassOf(const std::string& word) {
  for (const Grammar* g : {&English(), &Russian()}) {
    for (const auto& forms : g->verbs)
      if (std::find(forms.begin(), forms.end(), word) != forms.end()) return WordClass::kVerb;
    if (std::find(g->objects.begin(), g->objects.end(), word) != g->objects.end())
      return WordClass::kObject;
  }
  return WordClass::kOther;
}

// Lower case for ASCII and Russian Cyrillic (А-Я, Ё), enough to accept "Я люблю суши".
std::string Lower(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c + 32);
    } else if (c == 0xD0 && i + 1 < s.size()) {
      const unsigned char d = static_cast<unsigned char>(s[i + 1]);
      if (d >= 0x90 && d <= 0x9F) { out += '\xD0'; out += static_cast<char>(d + 0x20); }       // А-П
      else if (d >= 0xA0 && d <= 0xAF) { out += '\xD1'; out += static_cast<char>(d - 0x20); }  // Р-Я
      else if (d == 0x81) { out += "\xD1\x91"; }                                               // Ё
      else { out += '\xD0'; out += static_cast<char>(d); }
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

int Uniform(rng::SplitMix64& s, int n) {  // 0..n-1; n is tiny, so the modulo bias is < 2^-58
  return static_cast<int>(s.Next() % static_cast<std::uint64_t>(n));
}


}  // namespace

constexpr Named<TaskKind> kTaskNames[] = {{TaskKind::kPreviousToken, "previous"},
                                           {TaskKind::kReverse, "reverse"},
                                           {TaskKind::kVerbObject, "verb_object"},
                                           {TaskKind::kMax, "max"}};

const char* TaskName(TaskKind k) { return NameIn(kTaskNames, k); }
bool ParseTask(const std::string& name, TaskKind* out) { return ParseIn(kTaskNames, name, out); }

Task MakeTask(TaskKind kind, int length) {
  Task t;
  t.kind = kind;
  t.length = std::clamp(length, kMinLength, kMaxLength);
  switch (kind) {
    case TaskKind::kPreviousToken:
    case TaskKind::kReverse:
      t.vocab.assign(std::begin(kLetters), std::end(kLetters));
      t.max_length = t.length;
      for (int i = 0; i < t.length; ++i) t.default_example += (i ? " " : "") + std::string(kLetterExample[i]);
      break;
    case TaskKind::kMax:
      t.vocab.assign(std::begin(kDigits), std::end(kDigits));
      t.max_length = t.length;
      for (int i = 0; i < t.length; ++i) t.default_example += (i ? " " : "") + std::string(kDigitExample[i]);
      break;
    case TaskKind::kVerbObject:
      for (const Grammar* g : {&Russian(), &English()}) {
        for (const auto& w : g->subjects) AddUnique(t.vocab, w);
        for (const auto& w : g->adverbs) AddUnique(t.vocab, w);
        for (const auto& forms : g->verbs)
          for (const auto& w : forms) AddUnique(t.vocab, w);
        for (const auto& w : g->adjectives) AddUnique(t.vocab, w);
        for (const auto& w : g->objects) AddUnique(t.vocab, w);
      }
      t.length = 0;      // varies: 3..5
      t.max_length = 5;  // subject adverb verb adjective object
      t.default_example = "я люблю суши";
      break;
  }
  return t;
}

Example SampleExample(const Task& task, rng::SplitMix64& s) {
  Example ex;
  const int v = static_cast<int>(task.vocab.size());
  switch (task.kind) {
    case TaskKind::kPreviousToken:
    case TaskKind::kReverse: {
      const int n = task.length;
      for (int i = 0; i < n; ++i) ex.tokens.push_back(Uniform(s, v));
      for (int i = 0; i < n; ++i) {
        const int src = task.kind == TaskKind::kPreviousToken ? i - 1 : n - 1 - i;
        ex.sources.push_back(src);
        ex.targets.push_back(src >= 0 ? ex.tokens[src] : -1);
      }
      break;
    }
    case TaskKind::kMax: {
      // The largest digit m (1..9) at one position; every other digit below it.
      const int n = task.length;
      const int m = 1 + Uniform(s, 9);
      const int at = Uniform(s, n);
      for (int i = 0; i < n; ++i) ex.tokens.push_back(i == at ? m : Uniform(s, m));
      ex.targets.assign(n, m);  // the digit's id is its value
      ex.sources.assign(n, at);
      break;
    }
    case TaskKind::kVerbObject: {
      const Grammar& g = Uniform(s, 2) == 0 ? Russian() : English();
      const int who = Uniform(s, static_cast<int>(g.subjects.size()));
      const int verb = Uniform(s, static_cast<int>(g.verbs.size()));
      const int what = Uniform(s, static_cast<int>(g.objects.size()));
      const int adverb = Uniform(s, static_cast<int>(g.adverbs.size()) + 1);  // last = none
      const int adjective = Uniform(s, static_cast<int>(g.adjectives.size()) + 1);
      std::vector<std::string> words{g.subjects[who]};
      if (adverb < static_cast<int>(g.adverbs.size())) words.push_back(g.adverbs[adverb]);
      const int verb_at = static_cast<int>(words.size());
      words.push_back(g.verbs[verb][who]);
      if (adjective < static_cast<int>(g.adjectives.size())) words.push_back(g.adjectives[adjective]);
      words.push_back(g.objects[what]);
      const int n = static_cast<int>(words.size());
      for (const auto& w : words) ex.tokens.push_back(IndexOf(task.vocab, w));
      ex.targets.assign(n, -1);
      ex.sources.assign(n, -1);
      ex.targets[verb_at] = ex.tokens[n - 1];
      ex.sources[verb_at] = n - 1;
      break;
    }
  }
  return ex;
}

namespace {

bool RefuseExample(ExampleError* error, ExampleError e) {
  if (error) *error = std::move(e);
  return false;
}

}  // namespace

bool LabelExample(const Task& task, const std::string& text, Example* out, std::string* error) {
  ExampleError e;
  if (LabelExample(task, text, out, &e)) return true;
  return linalg::Fail(error, e.message);
}

bool LabelExample(const Task& task, const std::string& text, Example* out, ExampleError* error) {
  const TokenizeResult tr = Tokenize(text);
  if (!tr.ok()) {
    ExampleError e;
    e.code = ExampleRefusal::kTokenizer;
    e.tokenizer = tr.error;
    e.count = static_cast<long long>(tr.detail);
    e.message = tr.message;
    return RefuseExample(error, std::move(e));
  }
  Example ex;
  for (const Token& tok : tr.tokens) {
    int id = IndexOf(task.vocab, tok.text);
    if (id < 0) id = IndexOf(task.vocab, Lower(tok.text));
    if (id < 0 && Lower(tok.text) == "i") id = IndexOf(task.vocab, "I");
    if (id < 0) {
      std::string known;
      for (std::size_t i = 0; i < task.vocab.size() && i < 12; ++i) known += (i ? " " : "") + task.vocab[i];
      if (task.vocab.size() > 12) known += " …";
      ExampleError e;
      e.code = ExampleRefusal::kUnknownWord;
      e.word = tok.text;
      e.vocabulary = known;
      e.message = "\"" + tok.text + "\" is not in the " + TaskName(task.kind) + " vocabulary (" + known + ")";
      return RefuseExample(error, std::move(e));
    }
    ex.tokens.push_back(id);
  }
  const int n = static_cast<int>(ex.tokens.size());
  ex.targets.assign(n, -1);
  ex.sources.assign(n, -1);
  switch (task.kind) {
    case TaskKind::kPreviousToken:
    case TaskKind::kReverse:
    case TaskKind::kMax:
      if (n != task.length) {
        ExampleError e;
        e.code = ExampleRefusal::kWrongLength;
        e.count = n;
        e.limit = task.length;
        e.message = "the example must have " + std::to_string(task.length) +
                    " tokens (the task's length), not " + std::to_string(n);
        return RefuseExample(error, std::move(e));
      }
      break;
    case TaskKind::kVerbObject:
      if (n > task.max_length) {
        ExampleError e;
        e.code = ExampleRefusal::kTooLong;
        e.count = n;
        e.limit = task.max_length;
        e.message = "the example has " + std::to_string(n) + " words; sentences of this task have at most " +
                    std::to_string(task.max_length);
        return RefuseExample(error, std::move(e));
      }
      break;
  }
  switch (task.kind) {
    case TaskKind::kPreviousToken:
      for (int i = 1; i < n; ++i) { ex.sources[i] = i - 1; ex.targets[i] = ex.tokens[i - 1]; }
      break;
    case TaskKind::kReverse:
      for (int i = 0; i < n; ++i) { ex.sources[i] = n - 1 - i; ex.targets[i] = ex.tokens[n - 1 - i]; }
      break;
    case TaskKind::kMax: {
      const int m = *std::max_element(ex.tokens.begin(), ex.tokens.end());
      if (std::count(ex.tokens.begin(), ex.tokens.end(), m) != 1)
        return RefuseExample(error, ExampleError{ExampleRefusal::kLargestNotUnique, TokenizeError::kNone, "", "", 0, 0,
                                          "the largest digit must occur once in the example"});
      const int at = static_cast<int>(std::find(ex.tokens.begin(), ex.tokens.end(), m) - ex.tokens.begin());
      ex.targets.assign(n, m);
      ex.sources.assign(n, at);
      break;
    }
    case TaskKind::kVerbObject: {
      int verb = -1, object = -1, verbs = 0, objects = 0;
      for (int i = 0; i < n; ++i) {
        const WordClass c = ClassOf(task.vocab[ex.tokens[i]]);
        if (c == WordClass::kVerb) { verb = i; ++verbs; }
        if (c == WordClass::kObject) { object = i; ++objects; }
      }
      if (verbs != 1 || objects != 1 || object < verb)
        return RefuseExample(error, ExampleError{ExampleRefusal::kNeedsVerbThenObject, TokenizeError::kNone, "", "", 0, 0,
                                          "the example needs one verb followed by one object, e.g. "
                                          "\"я люблю суши\" or \"I love sushi\""});
      ex.targets[verb] = ex.tokens[object];
      ex.sources[verb] = object;
      break;
    }
  }
  *out = std::move(ex);
  return true;
}

}  // namespace attn
