// The training runs and the normalization experiments as JSON: what the page API's
// attentionLab.train(), getTraining() and getNormalization() return (web/js/api.js documents the
// formats). Every number is the engine's; nothing is computed here.
#pragma once

#include "api/state_json.h"
#include "engine/training/normexp.h"
#include "engine/training/train.h"

namespace attn::api {

// One run after its last step: {step, loss, accuracy, attentionOnSource, gradNorm: {WQ, WK, WV,
// WO, total}, exampleWeights: [per head N x N], tokens, query, predicted, diverged, message}.
// loss, accuracy, attentionOnSource and gradNorm are those of the last step's batch (before its
// update), null before the first step.
Json RunToJson(const Trainer& trainer, const ExampleView& view, int query);

// A run's history, one array per metric (index k = step k + 1): {steps, loss, accuracy,
// attentionOnSource, gradNorm: {WQ, WK, WV, WO, total}, diverged, message}.
Json HistoryToJson(const Trainer& trainer);

// The four normalization experiments (normexp.h), as arrays of points / series.
Json ScoreVarianceToJson(const std::vector<ScoreVariancePoint>& points);
Json SaturationToJson(const std::vector<SaturationPoint>& points);
Json OutputNormToJson(const std::vector<OutputNormPoint>& points, const std::vector<Normalizer>& normalizers);
Json CurvesToJson(const CurveExperiment& curves);

}  // namespace attn::api
