// Engine-internal: the frame of a set of vectors' affine hull, by a rank-revealing QR. The
// information analysis writes the values in it (information.h), and the same-output polytope
// takes its constraints from it (same_output.h).
//
// Shapes: N = points (tokens), Dv = their width, r = affine rank.
// Bit-exactness: plain loops in a fixed order, no Eigen products or decompositions, no FMA
// contraction (linalg.h's rules).
#pragma once

#include "engine/base/types.h"

#include <vector>

namespace attn {
namespace affine {

// Householder QR with column pivoting (Businger & Golub 1965; LAPACK's xGEQP3 without
// blocking): A P = Q R. Stops at the first pivot |R_kk| <= max(rel_tol |R_00|, abs_tol): the
// number of steps taken is the numerical rank. Column norms are recomputed at every step
// (no downdating: at these sizes exactness is cheaper than care).
struct PivotedQr {
  MatD qr;                // (m, n): R on and above the diagonal, reflectors v_k below (v_k(k) = 1)
  std::vector<double> tau;  // (rank) H_k = I - tau_k v_k v_k^T
  std::vector<int> perm;  // column k of qr is column perm[k] of A
  int rank = 0;
};
PivotedQr QrColumnPivoting(MatD a, double rel_tol, double abs_tol);  // a: (m, n)

// y <- Q^T y (the first `rank` reflectors, in order). y: (m).
void ApplyQt(const PivotedQr& f, VecD& y);
// y <- Q y (the reflectors in reverse order). y: (m).
void ApplyQ(const PivotedQr& f, VecD& y);

// The values in an orthonormal frame of their affine hull: v_i = mean + Q_r z_i, where the r
// columns of Q_r span the hull's directions. z: (r, N).
struct Frame {
  int n = 0, rank = -1;
  VecD mean;     // (Dv)
  PivotedQr qr;  // of (V - mean)^T: (Dv, N)
  MatD z;        // (r, N) column i = coordinates of v_i - mean
};
// The values V (N, Dv) centred on their mean and factored: a direction counts when its pivot
// exceeds `tol` times the largest one and 1e-13 max |V_ij| (the centring's rounding); see
// information.h. N = 0 gives rank -1. With centre = false the mean is 0 and the frame spans the
// values' linear span instead (its rank is the linear rank of V): the frame of the box and the
// affine set of weights that need not sum to 1 (information.h).
Frame BuildFrame(const MatD& V, double tol, bool centre = true);

// Coordinates of a point in the frame: (Q^T (y - mean))_{0..r-1}; `off` gets the norm of the
// rest (the distance from the hull's affine span).
VecD FrameCoordinates(const Frame& f, const VecD& y, double* off);

// out = V^T a in plain loops. V: (N, Dv), a: (N) -> (Dv).
VecD WeightedSum(const MatD& V, const VecD& a);
// sum_i a_i, in order.
double Sum(const VecD& a);

}  // namespace affine
}  // namespace attn
