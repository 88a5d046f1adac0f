// The optimizers (optim.h): SGD and Adam against updates computed by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/training/optim.h"

using namespace attn;

TEST_CASE("optim: SGD and Adam updates against hand-computed values") {
  MatD p(1, 2), g(1, 2);
  p << 1.0, -2.0;
  g << 0.5, -4.0;
  MatD q = p;
  SgdUpdate(q, g, 0.1);
  CHECK(q(0, 0) == doctest::Approx(0.95).epsilon(1e-15));
  CHECK(q(0, 1) == doctest::Approx(-1.6).epsilon(1e-15));

  // Adam, step 1: m = 0.1 g, v = 0.001 g^2; m_hat = g, v_hat = g^2, so the step is
  // lr * g / (|g| + eps) = lr * sign(g) (up to eps).
  MatD m = MatD::Zero(1, 2), v = MatD::Zero(1, 2);
  q = p;
  AdamUpdate(q, m, v, g, 1, 0.01);
  CHECK(m(0, 0) == doctest::Approx(0.05));
  CHECK(v(0, 1) == doctest::Approx(0.016));
  CHECK(q(0, 0) == doctest::Approx(1.0 - 0.01 * 0.5 / (0.5 + 1e-8)).epsilon(1e-14));
  CHECK(q(0, 1) == doctest::Approx(-2.0 + 0.01 * 4.0 / (4.0 + 1e-8)).epsilon(1e-14));
  // Step 2 with gradient 0.25 on entry 0, by hand:
  //   m = 0.9*0.05 + 0.1*0.25 = 0.07;  v = 0.999*0.00025 + 0.001*0.0625 = 0.00031225
  //   m_hat = 0.07 / 0.19 ;  v_hat = 0.00031225 / (1 - 0.998001) = 0.00031225 / 0.001999
  MatD g2(1, 2);
  g2 << 0.25, 0.0;
  const double before = q(0, 0);
  AdamUpdate(q, m, v, g2, 2, 0.01);
  CHECK(m(0, 0) == doctest::Approx(0.07).epsilon(1e-14));
  CHECK(v(0, 0) == doctest::Approx(0.00031225).epsilon(1e-14));
  const double expected = before - 0.01 * (0.07 / 0.19) / (std::sqrt(0.00031225 / 0.001999) + 1e-8);
  CHECK(q(0, 0) == doctest::Approx(expected).epsilon(1e-14));
  // Entry 1 had gradient 0 now, but momentum keeps it moving in the same direction.
  CHECK(q(0, 1) > -2.0 + 0.01 * 4.0 / (4.0 + 1e-8));
}
