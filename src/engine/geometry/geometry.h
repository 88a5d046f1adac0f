// 2D views of vectors: PCA projection and convex hull, for the vectors panel.
#pragma once

#include "engine/base/types.h"

#include <vector>

namespace attn {

struct Pca2D {
  MatF points;          // (M, 2) the inputs projected on the two leading components
  MatF components;      // (d, 2) unit principal directions (columns), sign fixed so that the
                        // largest-magnitude entry of each is positive
  VecF mean;            // (d) subtracted before projecting
  float explained = 0;  // fraction of total variance kept by the two components, in [0, 1];
                        // 1 when the points have no variance at all
  float explained1 = 0; // fraction kept by the first component alone
  VecF origin;          // (2) where the zero vector lands: components^T (0 - mean)
};

// PCA over the rows of `points` (M, d), M >= 1, d >= 1. With d == 1 the second coordinate is 0.
Pca2D ProjectPca2D(const MatF& points);

// The rows of `points` (M, d) in an existing plane: (points - plane.mean) . plane.components in
// double, as ProjectPca2D projects; components, mean, origin and explained are the plane's (so
// that edited points are drawn where the unedited view drew the plane).
Pca2D ProjectOnto(const Pca2D& plane, const MatF& points);

// Convex hull of 2D points (M, 2) by Andrew's monotone chain: indices of the hull vertices in
// counter-clockwise order, without repetition; collinear points on edges are left out.
// Degenerate inputs give 1 or 2 indices.
std::vector<int> ConvexHull2D(const MatF& points);

}  // namespace attn
