// attnlab lesson check FILE: a lesson document (docs/lessons.md) checked as the lab checks it
// (api/lesson_json.h): exit 0 and a one-line summary, or exit 2 and the refusal naming its path.
// attnlab lesson show FILE --step N [--lang ru]: a step's texts, as the lesson panel shows them.
#include "api/lesson_json.h"
#include "cli/common.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

bool Read(const std::string& command, const std::string& path, std::shared_ptr<const api::LessonDoc>* doc, int* code) {
  std::string text, error;
  if (!ReadInput(path, &text, &error)) {
    *code = RefuseCommand(command, error);
    return false;
  }
  const api::LessonParse p = api::ParseLesson(text);
  if (!p.ok) {
    *code = RefuseCommand(command, OneLine(p.message));
    return false;
  }
  *doc = p.doc;
  return true;
}

int RunCheck(const std::string& path) {
  std::shared_ptr<const api::LessonDoc> doc;
  int code = 0;
  if (!Read("lesson", path, &doc, &code)) return code;
  int questions = 0;
  for (const api::LessonStep& st : doc->steps) questions += st.has_question ? 1 : 0;
  std::cout << "ok: lesson " << api::DescribeJson(Json(doc->id)) << ", " << doc->steps.size() << " steps, " << questions
            << " questions: " << OneLine(doc->title.en) << "\n";
  return Finish("lesson", 0);
}

int RunShow(const std::string& path, int step, const std::string& lang) {
  std::shared_ptr<const api::LessonDoc> doc;
  int code = 0;
  if (!Read("lesson", path, &doc, &code)) return code;
  if (step < 1 || step > static_cast<int>(doc->steps.size()))
    return RefuseCommand("lesson", "--step: expected an integer from 1 to " + std::to_string(doc->steps.size()) + ", got " +
                                std::to_string(step));
  const api::LessonStep& st = doc->steps[static_cast<std::size_t>(step - 1)];
  const bool ru = lang == "ru";
  auto line = [&](const char* label, const api::LessonText& t) {
    if (!t.empty()) std::cout << label << t.In(ru) << "\n";
  };
  line("", st.title);
  line("quote: ", st.quote);
  line("", st.verdict_text);
  if (st.has_question) {
    line("question: ", st.question);
    for (std::size_t i = 0; i < st.choices.size(); ++i)
      std::cout << "  " << i + 1 << ". " << st.choices[i].In(ru) << (static_cast<int>(i) == st.right ? "  (right)" : "")
                << "\n";
    line("answer: ", st.explanation);
  }
  line("extra: ", st.extra_label);
  line("try: ", st.try_this);
  return Finish("lesson", 0);
}

}  // namespace

Command RegisterLesson(CLI::App& app) {
  struct Options {
    std::string file;
    int step = 1;
    std::string lang = "en";
  };
  auto o = std::make_shared<Options>();
  CLI::App* lesson = app.add_subcommand("lesson", "A lesson document (docs/lessons.md): check it, show a step");
  lesson->require_subcommand(1);
  CLI::App* check = lesson->add_subcommand("check", "Checks a lesson document as the lab does: a summary, or the refusal with its path");
  check->add_option("file", o->file, "the lesson's JSON file (- for stdin)")->required();
  CLI::App* show = lesson->add_subcommand("show", "Prints one step's texts");
  show->add_option("file", o->file, "the lesson's JSON file (- for stdin)")->required();
  show->add_option("--step", o->step, "the step, from 1");
  show->add_option("--lang", o->lang, "en (default) or ru")->check(CLI::IsMember({"en", "ru"}));
  return {lesson, [o, check] {  // "show" whenever "check" was not the one chosen
            if (*check) return RunCheck(o->file);
            return RunShow(o->file, o->step, o->lang);
          }};
}

}  // namespace attn::cli
