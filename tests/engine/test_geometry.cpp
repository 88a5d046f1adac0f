// Geometry: PCA on points of known shape, the sign convention, the convex hull, the row-major
// layout, and the lab's output inside the hull of its values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/geometry/geometry.h"
#include "engine/lab/lab.h"

using attn::MatF;
using attn::VecF;

namespace {

// Index of the largest-magnitude entry (first on a tie).
Eigen::Index ArgMaxAbs(const VecF& v) {
  Eigen::Index best = 0;
  for (Eigen::Index k = 1; k < v.size(); ++k) {
    if (std::abs(v(k)) > std::abs(v(best))) best = k;
  }
  return best;
}

// Twice the signed area: > 0 for a counter-clockwise polygon.
double SignedArea2(const MatF& p, const std::vector<int>& poly) {
  double a = 0;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const int i = poly[k], j = poly[(k + 1) % poly.size()];
    a += double(p(i, 0)) * p(j, 1) - double(p(j, 0)) * p(i, 1);
  }
  return a;
}

// Inside or on a counter-clockwise convex polygon, with a tolerance for float rounding.
bool InsideConvex(const MatF& p, const std::vector<int>& hull, float x, float y, double eps) {
  for (std::size_t k = 0; k < hull.size(); ++k) {
    const int a = hull[k], b = hull[(k + 1) % hull.size()];
    const double ex = p(b, 0) - p(a, 0), ey = p(b, 1) - p(a, 1);
    const double cross = ex * (y - p(a, 1)) - ey * (x - p(a, 0));
    if (cross < -eps * std::hypot(ex, ey)) return false;  // eps as a distance from the edge
  }
  return true;
}

}  // namespace

TEST_CASE("PCA: points on a line recover the line, with the sign convention") {
  // u = (2, -6, 3) / 7 is a unit vector whose largest-magnitude entry is negative, so the
  // convention must flip it: the component is (-2, 6, -3) / 7.
  const Eigen::Vector3f u(2.0f / 7, -6.0f / 7, 3.0f / 7);
  const Eigen::Vector3f c(1, 2, 3);
  const float ts[] = {-2.0f, -0.5f, 0.0f, 1.0f, 1.5f, 4.0f};
  MatF pts(6, 3);
  for (int i = 0; i < 6; ++i) pts.row(i) = (c + ts[i] * u).transpose();
  const attn::Pca2D pca = attn::ProjectPca2D(pts);
  REQUIRE(pca.points.rows() == 6);
  REQUIRE(pca.points.cols() == 2);
  REQUIRE(pca.components.rows() == 3);
  REQUIRE(pca.components.cols() == 2);
  CHECK(pca.explained == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(pca.explained1 == doctest::Approx(1.0).epsilon(1e-5));
  const VecF c1 = pca.components.col(0);
  CHECK(c1(0) == doctest::Approx(-2.0 / 7).epsilon(1e-5));
  CHECK(c1(1) == doctest::Approx(6.0 / 7).epsilon(1e-5));
  CHECK(c1(2) == doctest::Approx(-3.0 / 7).epsilon(1e-5));
  // Coordinates: -(t - mean t), the minus from the flip; mean t = 4 / 6.
  for (int i = 0; i < 6; ++i) {
    CHECK(pca.points(i, 0) == doctest::Approx(-(ts[i] - 4.0 / 6)).epsilon(1e-5));
    CHECK(std::abs(pca.points(i, 1)) < 1e-4f);
  }
  CHECK((pca.mean - (c + (4.0f / 6) * u)).cwiseAbs().maxCoeff() < 1e-5f);
}

TEST_CASE("PCA: points on a plane keep all their variance and their distances") {
  // A plane in 5D spanned by two orthonormal vectors, points spread unevenly on it.
  VecF e1(5), e2(5);
  e1 << 0.6f, 0.8f, 0, 0, 0;
  e2 << 0, 0, 0, 1, 0;
  const float a[] = {3, -1, 0.5f, -2.5f, 1.2f, 0, 2};
  const float b[] = {0.2f, 1, -0.7f, 0.3f, -0.1f, 0.9f, -0.6f};
  MatF pts(7, 5);
  for (int i = 0; i < 7; ++i)
    pts.row(i) = (a[i] * e1 + b[i] * e2).transpose() + VecF::Constant(5, 1.0f).transpose();
  const attn::Pca2D pca = attn::ProjectPca2D(pts);
  CHECK(pca.explained == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(pca.explained1 < 0.95f);  // the second direction carries some variance
  CHECK(pca.explained1 > 0.5f);   // and the first carries most (a is spread wider than b)
  // The components lie in the plane and are orthonormal.
  for (int k = 0; k < 2; ++k) {
    const VecF ck = pca.components.col(k);
    CHECK(ck.norm() == doctest::Approx(1.0).epsilon(1e-5));
    const float in_plane = std::hypot(ck.dot(e1), ck.dot(e2));
    CHECK(in_plane == doctest::Approx(1.0).epsilon(1e-5));
    CHECK(ck(ArgMaxAbs(ck)) > 0);  // the sign convention
  }
  CHECK(std::abs(pca.components.col(0).dot(pca.components.col(1))) < 1e-5f);
  // A projection onto the plane the points span preserves every distance.
  for (int i = 0; i < 7; ++i) {
    for (int j = i + 1; j < 7; ++j) {
      const float d_orig = (pts.row(i) - pts.row(j)).norm();
      const float d_2d = (pca.points.row(i) - pca.points.row(j)).norm();
      CHECK(d_2d == doctest::Approx(d_orig).epsilon(1e-4));
    }
  }
}

TEST_CASE("PCA: negating the points keeps the components and negates the coordinates") {
  MatF pts(5, 3);
  pts << 1, 0.2f, 3,  //
      -2, 1, 0.5f,    //
      0.3f, -1, 2,    //
      4, 0, -1,       //
      -1, -0.5f, 0;
  const attn::Pca2D p = attn::ProjectPca2D(pts);
  const attn::Pca2D n = attn::ProjectPca2D(-pts);
  CHECK((p.components - n.components).cwiseAbs().maxCoeff() < 1e-5f);
  CHECK((p.points + n.points).cwiseAbs().maxCoeff() < 1e-4f);
  CHECK(p.explained > p.explained1);
  CHECK(p.explained <= 1.0f);
  for (int k = 0; k < 2; ++k) {
    const VecF ck = p.components.col(k);
    CHECK(ck(ArgMaxAbs(ck)) > 0);
  }
}

TEST_CASE("PCA: the components are the covariance's leading eigenvectors") {
  // An anisotropic cloud in 6D: coordinates with standard deviations 5, 3, 2, 1, 0.5, 0.1,
  // rotated by a fixed mixing so that no axis is special. Checked with products only: the
  // eigen-equation cov c = lambda c, orthonormality, order, and the explained fractions.
  const int m = 60, d = 6;
  const double sd[d] = {5, 3, 2, 1, 0.5, 0.1};
  std::uint64_t s = 12345;
  const auto uniform = [&s]() {  // [-1, 1)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) * 0x1.0p-52 - 1.0;
  };
  Eigen::MatrixXd mix(d, d);
  for (int r = 0; r < d; ++r) {
    for (int c = 0; c < d; ++c) mix(r, c) = uniform();
  }
  MatF pts(m, d);
  for (int i = 0; i < m; ++i) {
    Eigen::VectorXd z(d);
    for (int k = 0; k < d; ++k) z(k) = sd[k] * uniform();
    pts.row(i) = (mix * z).cast<float>().transpose();
  }
  const attn::Pca2D pca = attn::ProjectPca2D(pts);

  const Eigen::MatrixXd p = pts.cast<double>();
  const Eigen::RowVectorXd mean = p.colwise().mean();
  const Eigen::MatrixXd centred = p.rowwise() - mean;
  const Eigen::MatrixXd cov = centred.transpose() * centred / m;
  const Eigen::VectorXd c1 = pca.components.col(0).cast<double>();
  const Eigen::VectorXd c2 = pca.components.col(1).cast<double>();
  const double l1 = c1.dot(cov * c1), l2 = c2.dot(cov * c2);  // Rayleigh quotients
  CHECK((cov * c1 - l1 * c1).norm() < 1e-4 * l1);
  CHECK((cov * c2 - l2 * c2).norm() < 1e-4 * l1);
  CHECK(c1.norm() == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(c2.norm() == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(std::abs(c1.dot(c2)) < 1e-6);
  CHECK(l1 >= l2);
  // No direction has more variance than c1; none orthogonal to c1 more than c2.
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::VectorXd u(d);
    for (int k = 0; k < d; ++k) u(k) = uniform();
    u.normalize();
    CHECK(u.dot(cov * u) <= l1 * (1 + 1e-6));
    u -= u.dot(c1) * c1;
    u.normalize();
    CHECK(u.dot(cov * u) <= l2 * (1 + 1e-6) + 1e-9 * l1);
  }
  const double total = cov.trace();
  CHECK(pca.explained1 == doctest::Approx(l1 / total).epsilon(1e-5));
  CHECK(pca.explained == doctest::Approx((l1 + l2) / total).epsilon(1e-5));
  CHECK(pca.explained < 1.0f);
  // The coordinates are the centred points along the components.
  for (int i = 0; i < m; ++i) {
    CHECK(pca.points(i, 0) == doctest::Approx(centred.row(i).dot(c1)).epsilon(1e-4));
    CHECK(pca.points(i, 1) == doctest::Approx(centred.row(i).dot(c2)).epsilon(1e-4));
  }
}

TEST_CASE("PCA: zero variance, one point, one dimension") {
  MatF same(4, 3);
  for (int i = 0; i < 4; ++i) same.row(i) << 0.1f, -7, 3;
  const attn::Pca2D z = attn::ProjectPca2D(same);
  CHECK(z.explained == 1.0f);
  CHECK(z.points.rows() == 4);
  CHECK(z.points.cwiseAbs().maxCoeff() == 0.0f);
  CHECK(z.mean(1) == -7.0f);

  const attn::Pca2D one = attn::ProjectPca2D(MatF::Constant(1, 4, 2.5f));
  CHECK(one.explained == 1.0f);
  CHECK(one.points.cwiseAbs().maxCoeff() == 0.0f);

  MatF line(3, 1);
  line << 1, 2, 6;  // mean 3
  const attn::Pca2D d1 = attn::ProjectPca2D(line);
  REQUIRE(d1.points.cols() == 2);
  CHECK(d1.explained == doctest::Approx(1.0));
  CHECK(d1.components(0, 0) == doctest::Approx(1.0));
  CHECK(d1.points(0, 0) == doctest::Approx(-2.0));
  CHECK(d1.points(2, 0) == doctest::Approx(3.0));
  CHECK(d1.points.col(1).cwiseAbs().maxCoeff() == 0.0f);
}

TEST_CASE("ConvexHull2D: a square with interior, edge and duplicate points") {
  MatF p(11, 2);
  p << 1, 1,  // 0 interior
      4, 4,   // 1 corner
      2, 0,   // 2 on the bottom edge
      0, 0,   // 3 corner
      2, 3,   // 4 interior
      4, 0,   // 5 corner
      4, 2,   // 6 on the right edge
      0, 4,   // 7 corner
      0, 2,   // 8 on the left edge
      2, 4,   // 9 on the top edge
      4, 4;   // 10 duplicate of 1
  const std::vector<int> hull = attn::ConvexHull2D(p);
  // Counter-clockwise from the lowest-x, lowest-y corner: (0,0) (4,0) (4,4) (0,4).
  CHECK(hull == std::vector<int>{3, 5, 1, 7});
  CHECK(SignedArea2(p, hull) == doctest::Approx(32.0));  // twice the area 16, CCW
}

TEST_CASE("ConvexHull2D: degenerate inputs give 0, 1 or 2 indices") {
  CHECK(attn::ConvexHull2D(MatF(0, 2)).empty());
  MatF one(1, 2);
  one << 3, 4;
  CHECK(attn::ConvexHull2D(one) == std::vector<int>{0});
  const MatF same = MatF::Constant(5, 2, 1.5f);
  CHECK(attn::ConvexHull2D(same) == std::vector<int>{0});
  MatF two(3, 2);
  two << 1, 1, 0, 0, 1, 1;
  CHECK(attn::ConvexHull2D(two) == std::vector<int>{1, 0});
  MatF collinear(5, 2);
  collinear << 2, 2, 0, 0, 4, 4, 1, 1, 3, 3;
  CHECK(attn::ConvexHull2D(collinear) == std::vector<int>{1, 2});
  // A triangle with a point in the middle of an edge: the edge point is left out.
  MatF tri(4, 2);
  tri << 0, 0, 2, 0, 1, 0, 1, 2;
  CHECK(attn::ConvexHull2D(tri) == std::vector<int>{0, 1, 3});
}

TEST_CASE("ToRowMajor: out[r * cols + c] = m(r, c) on a non-symmetric 2 x 3 matrix") {
  MatF m(2, 3);
  m << 1, 2, 3,  //
      4, 5, 6;
  // Eigen stores this column-major as 1 4 2 5 3 6; pictures want rows: 1 2 3 4 5 6.
  CHECK(std::vector<float>(m.data(), m.data() + 6) == std::vector<float>{1, 4, 2, 5, 3, 6});
  const std::vector<float> out = attn::ToRowMajor(m);
  CHECK(out == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(out[0 * 3 + 2] == m(0, 2));
  CHECK(out[1 * 3 + 0] == m(1, 0));
}

TEST_CASE("the lab's output A lies inside the hull of the projected values") {
  // A = sum_i alpha_i v_i with alpha on the simplex, and PCA is affine: P(A) must be a convex
  // combination of the P(v_i). Checked for the default lab and a spread of other settings.
  int with_polygon = 0;
  const char* sentences[] = {"я люблю суши", "the cat sat on the mat", "Привет, world!",
                             "a b c d e f g h i j"};
  for (const char* s : sentences) {
    for (const double temp : {1.0, 0.1, 5.0}) {
      for (const attn::Projection proj : {attn::Projection::kIdentity, attn::Projection::kRandom}) {
        attn::LabConfig cfg;
        cfg.sentence = s;
        cfg.temperature = temp;
        cfg.projection = proj;
        cfg.d_k = 4;
        CAPTURE(s);
        CAPTURE(temp);
        const attn::LabResult r = attn::ComputeLab(cfg);
        REQUIRE(r.error.ok());
        const int n = static_cast<int>(r.tokens.size());
        REQUIRE(r.vectors.points.rows() == 2 * n + 1);
        if (r.value_hull.size() < 3) continue;
        ++with_polygon;
        CHECK(SignedArea2(r.vectors.points, r.value_hull) > 0);
        const float ax = r.vectors.points(2 * n, 0), ay = r.vectors.points(2 * n, 1);
        CHECK(InsideConvex(r.vectors.points, r.value_hull, ax, ay, 1e-4));
        for (const int i : r.value_hull) CHECK(i < n);  // the hull is of the values only
      }
    }
  }
  CHECK(with_polygon >= 20);  // not vacuous: almost every case has a real polygon

  // The default lab itself, named.
  const attn::LabResult d = attn::ComputeLab(attn::LabConfig());
  REQUIRE(d.error.ok());
  REQUIRE(d.value_hull.size() == 3);  // three values in general position: a triangle
  CHECK(InsideConvex(d.vectors.points, d.value_hull, d.vectors.points(6, 0), d.vectors.points(6, 1),
                     1e-5));
}

TEST_CASE("PCA origin: the zero vector's projection, so the sum can be drawn term by term") {
  // Points far from 0, so the origin is not the centre of the picture.
  attn::MatF pts(4, 3);  // (M, d)
  pts << 5, 1, 0,  6, 3, 1,  7, 2, -1,  5.5f, 4, 2;
  const attn::Pca2D p = attn::ProjectPca2D(pts);
  REQUIRE(p.origin.size() == 2);
  const Eigen::Vector2f expected = p.components.transpose() * (-p.mean);
  CHECK(p.origin(0) == doctest::Approx(expected(0)).epsilon(1e-5));
  CHECK(p.origin(1) == doctest::Approx(expected(1)).epsilon(1e-5));
  CHECK(std::abs(p.origin(0)) > 1.0f);  // really away from the centre

  // In the lab: origin + sum_i (P(alpha_i v_i) - origin) lands on P(A), because P is affine.
  const attn::LabResult lab = attn::ComputeLab(attn::LabConfig{});
  REQUIRE(lab.error.ok());
  const int n = static_cast<int>(lab.tokens.size());
  Eigen::Vector2f tip = lab.vectors.origin;
  for (int i = 0; i < n; ++i) tip += lab.vectors.points.row(n + i).transpose() - lab.vectors.origin;
  CHECK(tip(0) == doctest::Approx(lab.vectors.points(2 * n, 0)).epsilon(1e-4));
  CHECK(tip(1) == doctest::Approx(lab.vectors.points(2 * n, 1)).epsilon(1e-4));
}

TEST_CASE("PCA origin with no variance is minus the mean on the first axes") {
  attn::MatF pts(3, 2);
  pts << 2, -1,  2, -1,  2, -1;
  const attn::Pca2D p = attn::ProjectPca2D(pts);
  CHECK(p.origin(0) == doctest::Approx(-2.0f));
  CHECK(p.origin(1) == doctest::Approx(1.0f));
}
