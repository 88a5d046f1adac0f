// The probe: how much of the pattern a readout of the weighted sum can name.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/information/probe.h"
#include "polytope_testing.h"

using attn::MatD;
using attn::VecD;
using namespace polytope_testing;

TEST_CASE("probe: accuracy rises with d_v, falls with tokens, heads trade room for patterns") {
  attn::ProbeConfig cfg;
  cfg.tokens = 8;
  cfg.d_v = 2;
  const attn::ProbeResult narrow = attn::RunProbe(cfg);
  cfg.d_v = 16;
  const attn::ProbeResult wide = attn::RunProbe(cfg);
  MESSAGE("probe, 8 tokens: d_v 2 -> " << narrow.accuracy << ", d_v 16 -> " << wide.accuracy
                                       << " (chance " << wide.chance << ")");
  CHECK(narrow.chance == doctest::Approx(0.125));
  CHECK(narrow.accuracy > narrow.chance + 0.1);
  CHECK(wide.accuracy > narrow.accuracy + 0.15);
  // Deterministic: the same seed, the same numbers.
  CHECK(attn::RunProbe(cfg).accuracy == wide.accuracy);

  // More tokens than d_v + 1: at d_v = 4, 3 tokens vs 16.
  cfg.d_v = 4;
  cfg.tokens = 3;
  const attn::ProbeResult few = attn::RunProbe(cfg);
  cfg.tokens = 16;
  const attn::ProbeResult many = attn::RunProbe(cfg);
  CHECK(few.accuracy > many.accuracy + 0.15);
  CHECK(many.accuracy > many.chance + 0.1);

  // Same total width 16: 4 heads of 4 name each head's favourite less often than 1 head of
  // 16, but name more patterns in all.
  cfg.tokens = 8;
  cfg.d_v = 16;
  cfg.heads = 4;
  const attn::ProbeResult four = attn::RunProbe(cfg);
  CHECK(four.heads == 4);
  CHECK(four.per_head.size() == 4);
  CHECK(four.accuracy < wide.accuracy - 0.1);
  CHECK(four.patterns_named > wide.patterns_named + 0.5);
  CHECK(four.all_heads <= four.accuracy);
}
