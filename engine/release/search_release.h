// The Release of a search (release.h), one builder per mode, from the search's results:
//
//   explore   every run: curves.csv, aggregate_curves.csv, alpha_clip_grid.csv; ε = the RDP
//             composition of every run trained (tuning::release_cost);
//   private   (MA / LT / PS, and private-subsampled) each replicate's winner only: winners.csv
//             and the winners in release.json; ε = the selection's, composed over the R
//             replicates. A cancelled private search releases NOTHING: the replicates that
//             happened to finish form a pattern that depends on their K. K, the hard-stop flags
//             and the wall time go to the CuratorRecord only. Each released winner's trained
//             model is written too (model/, or models/replicate-<r>/ for R > 1).
//
// The privacy card (release.json "privacy") states what the ε is about: the unit of privacy and
// the adjacency (add or remove one example), the sampler (Poisson, rate q = L / n), the
// normalisation (the noisy sum divided by the EXPECTED lot size L, a public constant: this is
// post-processing of the Gaussian mechanism on the sum, so the subsampled-Gaussian analysis
// holds; dividing by the realised lot size would not be, and only the reproduction variant
// lot_normalization = realized does it, labelled not covered), σ, T in noisy-gradient queries,
// the accountant and conversion of the released ε, δ and how it was chosen, the tuning mode and
// its K policy, secure or not, and how preprocessing was fitted.
//
// `spent` (optional): a stored run's spent ε when it ran in several attempts (run, cancel,
// resume, kill): every attempt's charges composed (store::Store::spent_budget), stated by
// with_spent_budget (spent_budget.h). With more than one attempt the card keeps this attempt's ε
// beside it (a run of one attempt writes the same bytes whichever door wrote it). Pure functions;
// thread-safe.
#pragma once

#include <optional>

#include "release/release.h"
#include "release/spent_budget.h"
#include "tuning/objpert_search.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"
#include "tuning/results.h"

namespace dplab::release {

// The privacy card of a search whose release costs `cost`.
nlohmann::json search_privacy_card(const tuning::SearchResults& results,
                                   const tuning::ReleaseCost& cost,
                                   const std::optional<SpentBudget>& spent = std::nullopt);

// The headline label every released CSV of the search carries (its epsilon_label column): the ε
// with what it covers and what it does not, and for a private release where its noise came from.
std::string search_epsilon_label(const nlohmann::json& privacy_card);

// `objpert` (may be null): the objective-perturbation runs of the search, charged with it
// (tuning::release_cost_with_objpert).
// Which trained models an explore release writes (tune --save-models): explore's ε covers every
// run, so any of them may be released; the default is none (a search of K runs would write K
// models). kBest: the candidate with the best selection score (accuracy, or lowest validation
// MSE), in model/; kAll: every run's, in models/candidate-<c>-repeat-<r>/. A run trained in an
// earlier attempt of a resumed search (or read from a history) has no model in memory: listed
// under released.models_not_kept.
enum class SaveModels { kNone, kBest, kAll };
SaveModels parse_save_models(const std::string& text);  // none | best | all; InvalidArgument

Release explore_release(const tuning::SearchResults& results, bool cancelled,
                        const std::optional<SpentBudget>& spent = std::nullopt,
                        const tuning::ObjpertSearch* objpert = nullptr,
                        SaveModels save_models = SaveModels::kNone);
// What a private search releases of its selected winners: all of them, or none when it was
// cancelled (the one rule every private door applies).
tuning::PrivateRelease released_winners(const tuning::PrivateRelease& selected, bool cancelled);

// `winners`: tuning::select_private_winners of the search (tune), or the stored copy (history).
Release private_release(const tuning::SearchResults& results, const tuning::PrivateRelease& winners,
                        bool cancelled, const std::optional<SpentBudget>& spent = std::nullopt);

// explore_release, or private_release of `winners` for a private search (none yet: nothing is
// released).
Release search_release(const tuning::SearchResults& runs,
                       const std::optional<tuning::PrivateRelease>& winners, bool cancelled,
                       const std::optional<SpentBudget>& spent = std::nullopt);

}  // namespace dplab::release
