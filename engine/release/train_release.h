// The Release of one training run (`dplab-cli train --out`): curve.csv and release.json, through
// the same writer as a search (release_writer.h). The card is a search's (search_release.h) for a
// single run: T = the queries the run made (a cancelled run: the steps taken), the accountant the
// run was charged with (RDP or PLD), and for a non-private baseline no ε at all.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "release/release.h"
#include "training/trainer.h"

namespace dplab::release {

struct TrainRun {
  std::string name;  // the data set's
  std::int64_t training_size = 0;
  std::int64_t validation_size = 0;
  double lot_size = 0;
  double sampling_rate = 0;
  double noise_multiplier = 0;  // 0 for a non-private baseline
  bool is_private = false;
  bool automatic_clipping = false;  // --clipping automatic: g/(||g|| + gamma), C = 1
  bool secure = false;
  double delta = 0;
  bool delta_given = false;  // --delta, else 1/n rounded down to a power of ten
  std::int64_t queries = 0;
  double epsilon = 0;         // at delta, under `accountant` (+inf for a baseline)
  std::string accountant;     // "rdp" | "pld"
  std::string epsilon_label;  // the run's label (train_command.cpp)
  data::Preprocessing preprocessing;
  bool cancelled = false;
  std::string status;            // finished | cancelled | diverged
  nlohmann::json final_metrics;  // validation loss and accuracy or MSE (charged)
  const std::vector<training::CurvePoint>* curve = nullptr;
  std::shared_ptr<const models::ExportedModel> model;  // the trained model (null: none released)
  data::InputEncoding input;
};

Release train_release(const TrainRun& run);

}  // namespace dplab::release
