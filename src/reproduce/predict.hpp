#pragma once
/// \file
/// `predict-runtime`: does the simulator predict what the runtime measures? The threads
/// engine is calibrated on this machine (runtime/calibration.hpp), each application that
/// exists in both engines runs for real on two workers with every strategy that accepts
/// two workers, and the simulator predicts the same runs with the calibrated cost model;
/// then it predicts 64 and 1024 processors (docs/predict.md).

#include "reproduce/reproduction.hpp"

namespace dlbkit {

ReproductionInfo predict_runtime_reproduction();

}  // namespace dlbkit
