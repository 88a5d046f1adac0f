// The training tasks: each one's vocabulary, how an example is drawn, and how a typed sentence is
// labelled. Every task has a known right attention pattern (`sources`), so that a heatmap has
// something to converge to (train.h).
//
// Legend: N = tokens of one example, V = vocabulary size.
#pragma once

#include "engine/base/limits.h"
#include "engine/base/rng.h"
#include "engine/text/tokenizer.h"  // TokenizeError

#include <string>
#include <vector>

namespace attn {

enum class TaskKind {
  kPreviousToken,  // position t predicts token t-1 (t >= 1): the sub-diagonal
  kReverse,        // position t predicts token N-1-t: the anti-diagonal
  kVerbObject,     // templated EN/RU sentences; the verb predicts its object: verb row -> object
  kMax             // every position predicts the largest digit in the sequence: the column of
                   // that digit (needs content, not position)
};
const char* TaskName(TaskKind k);  // "previous", "reverse", "verb_object", "max"
bool ParseTask(const std::string& name, TaskKind* out);  // exact names; *out untouched on failure

struct Example {
  std::vector<int> tokens;   // (N) vocabulary ids
  std::vector<int> targets;  // (N) the id position t must predict, or -1 (no loss at t)
  std::vector<int> sources;  // (N) the key the right pattern attends to from t, or -1
};

struct Task {
  TaskKind kind = TaskKind::kVerbObject;
  int length = 6;                  // tokens per example (previous, reverse, max); verb_object: 3..5
  std::vector<std::string> vocab;  // (V) token texts
  int max_length = 0;              // L: the longest example the task makes
  std::string default_example;     // the example sentence the panels show by default
};

// The task's vocabulary and sizes. `length` is used by previous, reverse and max (kMinLength..
// kMaxLength); verb_object ignores it.
Task MakeTask(TaskKind kind, int length);

// A random example drawn from `stream` (the same draws give the same example everywhere).
Example SampleExample(const Task& task, rng::SplitMix64& stream);

// Why LabelExample refused a sentence: a code with its words and numbers, so that an interface
// can say it in its own language, and the same in one English line.
enum class ExampleRefusal {
  kNone,
  kTokenizer,           // the tokenizer refused the text: `tokenizer`, `count` = its detail
  kUnknownWord,         // `word` is not in the vocabulary; `vocabulary`: its first words
  kWrongLength,         // previous, reverse, max: `count` tokens, the task wants `limit`
  kTooLong,             // verb_object: `count` words, at most `limit`
  kLargestNotUnique,    // max: the largest digit occurs more than once
  kNeedsVerbThenObject  // verb_object: not exactly one verb followed later by one object
};
struct ExampleError {
  ExampleRefusal code = ExampleRefusal::kNone;
  TokenizeError tokenizer = TokenizeError::kNone;
  std::string word;
  std::string vocabulary;  // "I you we they really …" (at most 12 words, then "…")
  long long count = 0, limit = 0;
  std::string message;     // English, one line
  bool ok() const { return code == ExampleRefusal::kNone; }
};

// Tokenizes `text` (engine tokenizer), maps each token to the vocabulary and labels it by the
// task's rule. Returns false with the reason when a word is not in the vocabulary, the length is
// wrong for the task, or (verb_object) there is not exactly one verb followed later by one
// object; (max) the largest digit must occur once. The second form gives the English line only.
bool LabelExample(const Task& task, const std::string& text, Example* out, ExampleError* error);
bool LabelExample(const Task& task, const std::string& text, Example* out, std::string* error);

}  // namespace attn
