// The word2vec pipeline of the sparse-DP reproduction: plain-text corpus loading
// (text/text_corpus.h), CBOW examples (text/cbow_examples.h), the CBOW negative-sampling model's
// sparse per-example gradient against central finite differences, and the canary audit
// (audit/canary.h): ranks against a brute-force softmax, a memorised canary (non-private, n_c = 15)
// is significantly non-uniform, never-inserted phrases are uniform. Data:
// tests/data/small_corpus.txt (a generated 420-line text; the default corpus of the CLI is not
// needed).
#include <QTest>
#include <algorithm>
#include <cmath>
#include <set>

#include "audit/canary.h"
#include "core/error.h"
#include "core/random.h"
#include "models/cbow_negative_sampling.h"
#include "support/numeric_compare.h"
#include "support/test_paths.h"
#include "support/test_registry.h"
#include "text/cbow_examples.h"
#include "text/text_corpus.h"
#include "training/wide_training.h"

using namespace dplab;

namespace {
// A function, not a constant: the data folder comes from CTest's environment, read when the test
// runs, not when the runner that holds every engine suite starts (support/test_registry.h).
std::string corpus_path() {
  return testing::test_data_dir() + "/small_corpus.txt";
}
}  // namespace

class TestWideModelAndCanary : public QObject {
  Q_OBJECT

 private slots:
  void tokenizer_and_vocabulary() {
    const auto tokens = text::tokenize("Ge1:1 In the Beginning, God's word-play!");
    const std::vector<std::string> expected{"ge",  "in", "the",  "beginning",
                                            "god", "s",  "word", "play"};
    QVERIFY(tokens == expected);
    // Stop words go; the 2 most frequent remain, ties alphabetical; others are removed.
    const auto corpus =
        text::build_corpus({"the cat and the dog", "dog bird cat", "dog"}, {2, true});
    QCOMPARE(corpus.vocabulary.size(), std::size_t(2));
    QCOMPARE(corpus.vocabulary[0], std::string("dog"));  // 3
    QCOMPARE(corpus.vocabulary[1], std::string("cat"));  // 2 (bird 1 dropped)
    QCOMPARE(corpus.counts[0], std::int64_t(3));
    QCOMPARE(corpus.lines.size(), std::size_t(3));
    QVERIFY((corpus.lines[1] == std::vector<int>{0, 1}));
    QCOMPARE(corpus.raw_tokens, std::int64_t(9));
    QCOMPARE(corpus.kept_tokens, std::int64_t(5));
  }

  void loader_errors_name_the_file() {
    try {
      text::load_text_corpus("/nonexistent/corpus.txt", {});
      QFAIL("no exception");
    } catch (const IoError& e) {
      QVERIFY(std::string(e.what()).find("/nonexistent/corpus.txt") != std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(ParseError, text::build_corpus({"the and of", "123"}, {}));
  }

  void loads_the_test_corpus() {
    const auto corpus = text::load_text_corpus(corpus_path(), {1000, true});
    QCOMPARE(corpus.vocabulary.size(), std::size_t(50));  // 40 nouns + 10 verbs
    QCOMPARE(corpus.id_of("the"), -1);
    QVERIFY(corpus.id_of("harbour") >= 0);
  }

  void cbow_examples_respect_the_window() {
    std::vector<int> stream(200);
    for (int i = 0; i < 200; ++i) stream[i] = i % 10;
    std::vector<std::int64_t> counts(10, 5);
    text::CbowDataOptions options;
    options.window = 2;
    options.negatives = 3;
    options.contexts_per_token = 1;
    const auto ex = text::make_cbow_examples(stream, counts, options, 9);
    QCOMPARE(ex.size(), std::int64_t(200));
    for (std::int64_t t = 0; t < 200; ++t) {
      const int diff = (ex.context[t] - ex.target[t] + 10) % 10;  // positions differ by 1..2
      QVERIFY(diff == 1 || diff == 2 || diff == 8 || diff == 9);
      for (int k = 0; k < 3; ++k) QVERIFY(ex.negatives_of(t)[k] >= 0 && ex.negatives_of(t)[k] < 10);
    }
    // All pairs: 4 per token, minus the 1 + 2 missing at each end = 794.
    options.contexts_per_token = 0;
    QCOMPARE(text::make_cbow_examples(stream, counts, options, 9).size(), std::int64_t(794));
  }

  void balanced_split_ends_both_streams_near_the_same_line() {
    // 20,000 lines of 5 tokens; every token of line i is i / 200 (0..99), so a stream's last token
    // says how far into the corpus it read. 25,000 tokens each (the paper-scale sizes, scaled).
    text::TextCorpus corpus;
    for (int i = 0; i < 20000; ++i) corpus.lines.push_back(std::vector<int>(5, i / 200));
    text::CbowDataOptions options;
    options.max_train_tokens = 25000;
    options.max_test_tokens = 25000;
    const auto end_of = [](const std::vector<int>& stream) {
      return stream.size() == 25000 ? stream.back() : -1000;  // -1000: not full, fails below
    };
    options.test_fraction = text::balanced_test_fraction(25000, 25000);
    QCOMPARE(options.test_fraction, 0.5);
    auto streams = text::split_streams(corpus, options);
    // Both end near line 10,000 (token 50): within 2 % of the corpus of each other.
    QVERIFY2(std::abs(end_of(streams.train) - end_of(streams.test)) <= 2,
             qPrintable(QString("%1 vs %2").arg(streams.train.back()).arg(streams.test.back())));
    // The old fixed 0.3: the training stream is full by line ~7,100, the test stream reads on
    // to line ~16,700 (token 83), 2.3 times as far.
    options.test_fraction = 0.3;
    streams = text::split_streams(corpus, options);
    QVERIFY(end_of(streams.test) - end_of(streams.train) >= 40);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, text::balanced_test_fraction(0, 10));
  }

  void gradient_matches_finite_differences() {
    // Example 0 is ordinary; example 1 repeats rows (target = context, a negative = target).
    text::CbowExamples ex;
    ex.negatives_per_example = 3;
    ex.target = {0, 2};
    ex.context = {1, 2};
    ex.negatives = {3, 4, 3, 2, 5, 1};
    models::CbowNegativeSampling model(6, 5);
    model.initialize(3, 0.5);
    model.bind(ex);
    for (Index i = 0; i < 2; ++i) {
      models::RowGradient g;
      const double loss = model.example_gradient(i, g);
      DPLAB_COMPARE_REL(loss, model.example_loss(ex, i), 1e-12);
      std::set<Index> rows(g.rows.begin(), g.rows.end());
      QCOMPARE(rows.size(), g.rows.size());  // duplicates merged
      for (Index row = 0; row < 6; ++row) {
        for (Index j = 0; j < 5; ++j) {
          const Index c = row * 5 + j;
          const float saved = model.params()[c];
          const float h = 1e-2f;
          model.params()[c] = saved + h;
          const double up = model.example_loss(ex, i);
          model.params()[c] = saved - h;
          const double down = model.example_loss(ex, i);
          model.params()[c] = saved;
          const double numeric = (up - down) / (2.0 * h);
          double analytic = 0;
          for (std::size_t r = 0; r < g.rows.size(); ++r)
            if (g.rows[r] == row) analytic = g.values[r * 5 + j];
          DPLAB_COMPARE_ABS(analytic, numeric, 2e-3 * std::max(1.0, std::abs(numeric)));
        }
      }
    }
  }

  void canary_rank_matches_brute_force() {
    models::CbowNegativeSampling model(7, 3);
    model.initialize(5, 0.8);
    const std::vector<audit::Canary> canaries{{1, 4, 2}, {6, 6, 0}};
    const auto ranks = audit::canary_ranks(model, canaries);
    auto row = [&](int w) { return model.params().segment(w * 3, 3).cast<double>().eval(); };
    auto log_prob = [&](int w, const Eigen::Vector3d& h) {
      double lse = 0;
      for (int x = 0; x < 7; ++x) lse += std::exp(row(x).dot(h));
      return row(w).dot(h) - std::log(lse);
    };
    for (std::size_t n = 0; n < canaries.size(); ++n) {
      const auto& c = canaries[n];
      auto perplexity = [&](int a, int b) {
        return -log_prob(a, row(c[0])) - log_prob(b, 0.5 * (row(c[0]) + row(a)));
      };
      const double pc = perplexity(c[1], c[2]);
      int beaten = 0;
      for (int a = 0; a < 7; ++a)
        for (int b = 0; b < 7; ++b)
          if (perplexity(a, b) > pc + 1e-9) ++beaten;
      DPLAB_COMPARE_ABS(ranks[n], beaten / 48.0, 1e-12);
    }
  }

  void canary_exposure_matches_hand_computation() {
    // Carlini et al. 2019 Def. 4 by hand: |R| = 49 candidates; rank = 1 + the number strictly
    // more likely (lower log-perplexity); exposure = log2 49 - log2 rank.
    DPLAB_COMPARE_REL(audit::exposure(49, 1), std::log2(49.0), 1e-15);
    DPLAB_COMPARE_ABS(audit::exposure(49, 49), 0.0, 1e-15);
    DPLAB_COMPARE_REL(audit::exposure(1024, 4), 8.0, 1e-15);  // 10 - 2 bits
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, audit::exposure(49, 0));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, audit::exposure(49, 50));
    models::CbowNegativeSampling model(7, 3);
    model.initialize(5, 0.8);
    const std::vector<audit::Canary> canaries{{1, 4, 2}, {6, 6, 0}, {3, 0, 5}};
    const auto scores = audit::canary_scores(model, canaries);
    auto row = [&](int w) { return model.params().segment(w * 3, 3).cast<double>().eval(); };
    auto log_prob = [&](int w, const Eigen::Vector3d& h) {
      double lse = 0;
      for (int x = 0; x < 7; ++x) lse += std::exp(row(x).dot(h));
      return row(w).dot(h) - std::log(lse);
    };
    double sum = 0, max = 0;
    for (std::size_t n = 0; n < canaries.size(); ++n) {
      const auto& c = canaries[n];
      auto perplexity = [&](int a, int b) {
        return -log_prob(a, row(c[0])) - log_prob(b, 0.5 * (row(c[0]) + row(a)));
      };
      const double pc = perplexity(c[1], c[2]);
      int more_likely = 0;
      for (int a = 0; a < 7; ++a)
        for (int b = 0; b < 7; ++b)
          if (perplexity(a, b) < pc - 1e-9) ++more_likely;
      QCOMPARE(scores[n].rank, std::int64_t{1 + more_likely});
      const double hand = std::log2(49.0) - std::log2(1.0 + more_likely);
      DPLAB_COMPARE_ABS(scores[n].exposure, hand, 1e-12);
      sum += hand;
      max = std::max(max, hand);
    }
    const auto summary = audit::summarize_exposure(scores);
    DPLAB_COMPARE_ABS(summary.mean, sum / 3.0, 1e-12);
    DPLAB_COMPARE_ABS(summary.max, max, 1e-12);
  }

  void canary_insertion_counts() {
    const std::vector<int> stream(100, 0);
    const std::vector<audit::Canary> canaries{{1, 2, 3}, {4, 5, 6}};
    const auto out = audit::insert_canaries(stream, canaries, 3, 1);
    QCOMPARE(out.size(), std::size_t(100 + 2 * 3 * 3));
    int found = 0;
    for (std::size_t i = 0; i + 2 < out.size(); ++i)
      if (out[i] == 4 && out[i + 1] == 5 && out[i + 2] == 6) ++found;
    QCOMPARE(found, 3);
  }

  void memorised_canary_is_non_uniform_and_absent_phrase_is_uniform() {
    // An i.i.d. uniform stream over V = 100 words (1,000 tokens): the canaries are the only
    // structure to learn. 20 canaries x n_c = 15, non-private Adam, ~16K window pairs.
    const int v = 100;
    Rng rng(70);
    std::vector<int> stream(1000), test_stream(300);
    for (int& w : stream) w = static_cast<int>(rng.below(v));
    for (int& w : test_stream) w = static_cast<int>(rng.below(v));
    const std::vector<std::int64_t> counts(v, 10);
    text::CbowDataOptions options;
    const auto canaries = audit::make_canaries(20, v, 77);
    const auto train = text::make_cbow_examples(audit::insert_canaries(stream, canaries, 15, 78),
                                                counts, options, 79);
    const auto test = text::make_cbow_examples(test_stream, counts, options, 80);
    models::CbowNegativeSampling model(v, 16);
    model.initialize(81);
    training::WideRunConfig config;
    config.method = training::WideMethod::kNonPrivate;
    config.learning_rate = 0.01;
    config.steps = 5000;
    config.eval_every = 5000;
    config.eval_examples = 1000;
    const auto run = training::run_wide_training(model, train, test, config);
    QVERIFY(run.curve.back().train_loss < run.curve.front().train_loss);
    const auto inserted = audit::rank_histogram(audit::canary_ranks(model, canaries));
    QVERIFY2(inserted.test.p_value < 1e-6,
             qPrintable(QString("memorised canaries: p = %1").arg(inserted.test.p_value)));
    QVERIFY(inserted.counts.back() >= 10);  // the mass is at the right (rank near 1)
    const auto absent =
        audit::rank_histogram(audit::canary_ranks(model, audit::make_canaries(300, v, 99)));
    QVERIFY2(absent.test.p_value > 0.01,
             qPrintable(QString("never-inserted phrases: p = %1").arg(absent.test.p_value)));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestWideModelAndCanary)
#include "test_wide_model_and_canary.moc"
