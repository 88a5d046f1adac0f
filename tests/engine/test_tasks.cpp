// The training tasks (tasks.h): sampled examples follow their rule; a sentence is labelled or
// refused with a message.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/base/rng.h"
#include "engine/training/tasks.h"

using namespace attn;

TEST_CASE("tasks: sampled examples follow their task's rule") {
  rng::SplitMix64 s(42);
  for (TaskKind k : {TaskKind::kPreviousToken, TaskKind::kReverse, TaskKind::kMax, TaskKind::kVerbObject}) {
    CAPTURE(TaskName(k));
    const Task task = MakeTask(k, 7);
    for (int rep = 0; rep < 200; ++rep) {
      const Example ex = SampleExample(task, s);
      const int n = static_cast<int>(ex.tokens.size());
      REQUIRE(n >= 2);
      REQUIRE(n <= task.max_length);
      for (int t = 0; t < n; ++t) {
        REQUIRE(ex.tokens[t] >= 0);
        REQUIRE(ex.tokens[t] < static_cast<int>(task.vocab.size()));
        if (ex.targets[t] >= 0) REQUIRE(ex.targets[t] == ex.tokens[ex.sources[t]]);
      }
      if (k == TaskKind::kPreviousToken) CHECK(ex.targets[0] == -1);
      if (k == TaskKind::kReverse) CHECK(ex.sources[0] == n - 1);
      if (k == TaskKind::kMax) {
        const int at = ex.sources[0];
        for (int t = 0; t < n; ++t) CHECK((t == at || ex.tokens[t] < ex.tokens[at]));
      }
      if (k == TaskKind::kVerbObject) {
        int with_target = 0;
        for (int t = 0; t < n; ++t) with_target += ex.targets[t] >= 0;
        CHECK(with_target == 1);
        CHECK(ex.sources[std::find_if(ex.targets.begin(), ex.targets.end(), [](int x) { return x >= 0; }) -
                         ex.targets.begin()] == n - 1);  // the object ends the sentence
      }
    }
  }
}

TEST_CASE("tasks: example sentences are labelled or refused with a message") {
  const Task vo = MakeTask(TaskKind::kVerbObject, 6);
  Example ex;
  std::string error;
  REQUIRE(LabelExample(vo, "я люблю суши", &ex, &error));
  CHECK(ex.targets == std::vector<int>{-1, ex.tokens[2], -1});
  CHECK(ex.sources == std::vector<int>{-1, 2, -1});
  REQUIRE(LabelExample(vo, "Я очень люблю суши", &ex, &error));  // capital Я is accepted
  CHECK(ex.sources[2] == 3);
  REQUIRE(LabelExample(vo, "i really love hot tea", &ex, &error));
  CHECK(ex.sources[2] == 4);
  CHECK_FALSE(LabelExample(vo, "я люблю пиццу", &ex, &error));
  CHECK(error.find("пиццу") != std::string::npos);
  CHECK_FALSE(LabelExample(vo, "суши люблю я", &ex, &error));  // object before the verb
  CHECK(error.find("verb") != std::string::npos);
  CHECK_FALSE(LabelExample(vo, "", &ex, &error));
  CHECK_FALSE(error.empty());

  const Task prev = MakeTask(TaskKind::kPreviousToken, 4);
  REQUIRE(LabelExample(prev, "a b c d", &ex, &error));
  CHECK(ex.targets == std::vector<int>{-1, 0, 1, 2});
  CHECK_FALSE(LabelExample(prev, "a b c", &ex, &error));
  CHECK(error.find("4 tokens") != std::string::npos);
  const Task mx = MakeTask(TaskKind::kMax, 4);
  CHECK_FALSE(LabelExample(mx, "9 1 9 2", &ex, &error));
  REQUIRE(LabelExample(mx, "1 9 3 2", &ex, &error));
  CHECK(ex.sources == std::vector<int>{1, 1, 1, 1});
  for (TaskKind k : {TaskKind::kPreviousToken, TaskKind::kReverse, TaskKind::kMax, TaskKind::kVerbObject})
    for (int len = kMinLength; len <= kMaxLength; ++len) {
      const Task t = MakeTask(k, len);
      CHECK(LabelExample(t, t.default_example, &ex, &error));
    }
}

TEST_CASE("tasks: a refused example says why as a code with its words and numbers (for translations)") {
  const Task vo = MakeTask(TaskKind::kVerbObject, 6);
  Example ex;
  ExampleError e;
  CHECK_FALSE(LabelExample(vo, "я люблю пиццу", &ex, &e));
  CHECK(e.code == ExampleRefusal::kUnknownWord);
  CHECK(e.word == "пиццу");
  CHECK_FALSE(e.vocabulary.empty());
  CHECK(e.message.find("пиццу") != std::string::npos);
  CHECK_FALSE(LabelExample(vo, "суши люблю я", &ex, &e));
  CHECK(e.code == ExampleRefusal::kNeedsVerbThenObject);
  CHECK_FALSE(LabelExample(vo, "", &ex, &e));
  CHECK(e.code == ExampleRefusal::kTokenizer);
  CHECK(e.tokenizer == TokenizeError::kEmpty);
  CHECK_FALSE(LabelExample(vo, "я очень очень очень очень люблю суши", &ex, &e));
  CHECK(e.code == ExampleRefusal::kTooLong);
  CHECK(e.count == 7);
  CHECK(e.limit == vo.max_length);
  const Task prev = MakeTask(TaskKind::kPreviousToken, 4);
  CHECK_FALSE(LabelExample(prev, "a b c", &ex, &e));
  CHECK(e.code == ExampleRefusal::kWrongLength);
  CHECK(e.count == 3);
  CHECK(e.limit == 4);
  CHECK_FALSE(LabelExample(MakeTask(TaskKind::kMax, 4), "9 1 9 2", &ex, &e));
  CHECK(e.code == ExampleRefusal::kLargestNotUnique);
  CHECK(LabelExample(prev, "a b c d", &ex, &e));
}

