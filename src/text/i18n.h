// The interface's language and the text in it. Every string the lab shows is a `Text` in one of
// the tables of src/text/strings/ (text::tr, one JSON file by subject, included as the header
// text/<subject>_strings.h generated from it at build time), so the two languages stay side by
// side and a missing translation is visible in review. The panels say it in the current
// language (SetLang, L); the app, which has no current language, in the state's (text.h's In).
#pragma once

#include "engine/training/train.h"  // TrainConfig, Divergence, ExampleError, TaskKind: the messages below say them
#include "text/text.h"  // Lang, Text, Plural, the plural rules, In

// the tables, all of them for the panels
#include "text/export_strings.h"
#include "text/lab_strings.h"
#include "text/lesson_strings.h"
#include "text/message_strings.h"
#include "text/model_strings.h"
#include "text/training_strings.h"
#include "text/whatif_strings.h"

#include <string>

namespace text {

void SetLang(Lang lang);
Lang CurrentLang();
Lang LangFromCode(const std::string& code);  // "ru" -> kRu, anything else -> kEn

const char* L(const Text& t);  // the text in the current language
// A count and its noun in the current language: Count(3, tr::kTokens) is "3 tokens" or
// «3 токена» (no-break space between them); Word gives the noun alone.
std::string Count(long long n, const Plural& p);
const char* Word(long long n, const Plural& p);
// A widget label with a stable ImGui ID across languages: "<text>###<id>".
const char* Label(const Text& t, const char* id);

// The engine's messages in the current language. The engine says what happened as a code with its
// numbers and words (language-free); the English line it also gives is used as it is.
std::string ExampleMessage(const attn::ExampleError& e);     // why a training example was refused
std::string DivergenceMessage(const attn::Divergence& d);    // "Training diverged at step 4: ..."
std::string CurveLabel(const attn::TrainConfig& c);          // "softmax ÷√d_k, d_k = 64"
const char* TaskLabel(attn::TaskKind k);                     // "verb → object"

}  // namespace text
