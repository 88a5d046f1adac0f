// The state in a link (url_state.h): reading by the tables' kinds, writing, round trips.
#include "api/url_state.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using attn::api::ApplyLink;
using attn::api::Json;
using attn::api::LabState;
using attn::api::ReadLink;
using attn::api::WriteLink;

TEST_CASE("link: values are read by their row's kind") {
  const auto link = ReadLink("#sentence=%D0%BC%D1%8B+%D0%BB%D1%8E%D0%B1%D0%B8%D0%BC%20%D0%BA%D0%BE%D1%84%D0%B5"
                             "&query=2&temperature=0.5&scaled=no&causal=on&projection=random&train.lr=0.03");
  CHECK(link.errors.empty());
  CHECK(link.patch["sentence"] == "мы любим кофе");
  CHECK(link.patch["query"].is_number());
  CHECK(link.patch["query"] == 2);
  CHECK(link.patch["temperature"] == 0.5);
  CHECK(link.patch["scaled"] == false);
  CHECK(link.patch["causal"] == true);
  CHECK(link.patch["projection"] == "random");
  CHECK(link.patch["train"]["lr"] == 0.03);
  // Table order, whatever the link's order: the sentence before the query.
  CHECK(link.keys.front() == "sentence");
}

TEST_CASE("link: what cannot be read is refused with the field's own message, the rest applies") {
  const auto r = ApplyLink(LabState{}, "#query=abc&temperature=nan&dModel=999&sentence=one%20two%20three&colour=red&x=%E0%A4");
  std::set<std::string> fields;
  for (const auto& e : r.errors) fields.insert(e.field);
  CHECK(fields == std::set<std::string>{"query", "temperature", "dModel", "colour", "x"});
  CHECK(r.state.config.sentence == "one two three");
  CHECK(r.state.config.temperature == 1.0);
  CHECK(r.state.config.d_model == 8);
  CHECK_FALSE(r.last_refusal.ok);
  bool query_message = false;
  for (const auto& e : r.errors)
    if (e.field == "query") query_message = e.message == "query: expected an integer from 0 to 63, got \"abc\"";
  CHECK(query_message);
}

TEST_CASE("link: a query that needs the link's own sentence is applied after it") {
  const auto r = ApplyLink(LabState{}, "#query=4&sentence=a%20b%20c%20d%20e&heads=1&head=0");
  CHECK(r.errors.empty());
  CHECK(r.state.config.query == 4);
}

TEST_CASE("link: malformed encodings are errors, not crashes") {
  for (const char* h : {"#%", "#sentence=%", "#sentence=%4", "#sentence=%zz", "#%ff=1", "#sentence=%C3%28", "&&&", "#=",
                        "#sentence", "#train=1", "#train.=1", "#train.colour=1"}) {
    CAPTURE(h);
    const auto r = ApplyLink(LabState{}, h);
    CHECK(r.state.config.sentence == "я люблю суши");
  }
  CHECK(ReadLink("#sentence=%").errors.size() == 1);
  CHECK(ReadLink("#train.colour=1").errors.at(0).message == "unknown parameter");
}

TEST_CASE("link: every field survives write -> read -> apply") {
  LabState s;
  s.config.sentence = "the cat sat & the dog = ?";
  s.config.query = 3;
  s.config.projection = attn::Projection::kRandom;
  s.config.temperature = 0.30000000000000004;
  s.config.scaled = false;
  s.config.d_model = 12;
  s.config.d_k = 5;
  s.config.seed = 4294967295ull;
  s.config.positional = false;
  s.config.heads = 3;
  s.config.head = 2;
  s.config.normalizer = attn::Normalizer::kSparsemax;
  s.config.causal = true;
  s.config.d_v = 2;
  s.config.target = 1;
  s.lang = "ru";
  s.view = "information";
  s.train.config.lr = 0.003;
  s.train.config.task = attn::TaskKind::kMax;
  s.train.config.length = 5;
  s.train.config.example = "3 1 4 1 2";
  s.train.compare = "normalizer:sigmoid";
  s.train.speed = 0;
  s.train.play = true;
  const std::string hash = WriteLink(s, attn::api::TrainState{});
  CAPTURE(hash);
  CHECK(hash.find("train.batch") == std::string::npos);  // defaults stay out of the link
  const auto r = ApplyLink(LabState{}, hash);
  CHECK(r.errors.empty());
  CHECK(attn::api::StateToJson(r.state) == attn::api::StateToJson(s));
}
