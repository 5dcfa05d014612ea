// Secure mode's generators: ChaCha20 against the RFC 8439 known-answer vectors (section 2.3.2
// and appendix A.1 #1; its batches, also in the by-word order, against single blocks across the
// counter wrap), GaussianNoise::secure() is N(0, 1) (chi-square over 20 equiprobable bins
// of the normal CDF) and never repeats, and two secure oracles with the SAME seed add different
// noise and draw different lots (nothing depends on the seed).
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/chacha20.h"
#include "core/os_entropy.h"
#include "core/random.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "privacy/mechanisms/gaussian_noise.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

}  // namespace

class TestSecureNoise : public QObject {
  Q_OBJECT

 private slots:
  void chacha20_rfc8439_block_vector() {
    // RFC 8439 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1.
    ChaCha20::Key key;
    for (std::uint32_t i = 0; i < 8; ++i) {
      key[i] = (4 * i) | ((4 * i + 1) << 8) | ((4 * i + 2) << 16) | ((4 * i + 3) << 24);
    }
    ChaCha20 chacha(key, {0x09000000u, 0x4a000000u, 0x00000000u}, 1);
    std::array<std::uint32_t, 16> block;
    chacha.next_block(block);
    const std::array<std::uint32_t, 16> expected{0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
                                                 0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
                                                 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                                 0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    QCOMPARE(block, expected);
    // The batch path (ChaCha20::next_blocks, the lane loop the compiler vectorizes): its first
    // block is the same RFC vector, and next_u64() reads it in the same order.
    ChaCha20 batched(key, {0x09000000u, 0x4a000000u, 0x00000000u}, 1);
    ChaCha20::Batch batch;
    batched.next_blocks(batch);
    QVERIFY(std::equal(expected.begin(), expected.end(), batch.begin()));
    ChaCha20 words(key, {0x09000000u, 0x4a000000u, 0x00000000u}, 1);
    for (std::size_t i = 0; i < 16; i += 2)
      QCOMPARE(words.next_u64(), std::uint64_t{expected[i]} | std::uint64_t{expected[i + 1]} << 32);
  }

  void chacha20_rfc8439_appendix_a1_and_word_order() {
    // A.1 test vector #1: all-zero key and nonce, counter 0; keystream bytes 76 b8 e0 ad a0 f1 3d
    // 90 ...
    ChaCha20 chacha({}, {}, 0);
    QCOMPARE(chacha.next_u64(), 0x903df1a0ade0b876ULL);  // bytes 0..7, little-endian
    QCOMPARE(chacha.next_u64(), 0x28bd8653e56a5d40ULL);  // bytes 8..15
    // The next block (counter 1) starts where this one ends.
    ChaCha20 a({}, {}, 0), b({}, {}, 1);
    std::uint64_t skip[8];
    a.fill(skip, 8);
    QCOMPARE(a.next_u64(), b.next_u64());
  }

  void chacha20_batches_equal_single_blocks_across_the_counter_wrap() {
    // Counter 2^32 - 5: the batches straddle the wrap, where the first nonce word moves on.
    ChaCha20::Key key{};
    for (std::uint32_t i = 0; i < 8; ++i) key[i] = 0x01234567u * (i + 1);
    const ChaCha20::Nonce nonce{7u, 8u, 9u};
    ChaCha20 single(key, nonce, 0xFFFFFFFBu), batched(key, nonce, 0xFFFFFFFBu),
        words(key, nonce, 0xFFFFFFFBu), by_word(key, nonce, 0xFFFFFFFBu);
    std::array<std::uint32_t, 16> block;
    ChaCha20::Batch batch, transposed;
    for (int round = 0; round < 3; ++round) {
      batched.next_blocks(batch);
      by_word.next_blocks_by_word(transposed);
      for (int b = 0; b < ChaCha20::kLanes; ++b) {
        single.next_block(block);
        QVERIFY2(std::equal(block.begin(), block.end(), batch.begin() + 16 * b),
                 qPrintable(QString("round %1, block %2").arg(round).arg(b)));
        for (std::size_t i = 0; i < 16; ++i)  // word i of block b at kLanes i + b
          QCOMPARE(transposed[ChaCha20::kLanes * i + static_cast<std::size_t>(b)], block[i]);
        for (std::size_t i = 0; i < 16; i += 2)
          QCOMPARE(words.next_u64(), std::uint64_t{block[i]} | std::uint64_t{block[i + 1]} << 32);
      }
    }
    // next_blocks_by_word takes the next counters, after the words next_u64() has buffered.
    ChaCha20 mixed(key, nonce, 0xFFFFFFFBu), reference(key, nonce, 0xFFFFFFFBu);
    (void)mixed.next_u64();  // buffers the blocks of counters 2^32 - 5 .. 2^32 + 10
    mixed.next_blocks_by_word(transposed);
    reference.next_blocks(batch);
    reference.next_blocks(batch);
    for (std::size_t i = 0; i < 16; ++i) QCOMPARE(transposed[ChaCha20::kLanes * i], batch[i]);
    // Past the wrap the block is that of counter 0 with nonce word 8 + 1.
    ChaCha20 after(key, {8u, 8u, 9u}, 0xFFFFFFFBu + 3 * ChaCha20::kLanes);
    ChaCha20 fresh(key, {8u, 8u, 9u}, 0xFFFFFFFBu + 3 * ChaCha20::kLanes);
    after.next_block(block);
    std::array<std::uint32_t, 16> expected;
    fresh.next_block(expected);
    QCOMPARE(block, expected);
    ChaCha20 wrapped(key, {7u, 8u, 9u}, 0xFFFFFFFFu), next(key, {8u, 8u, 9u}, 0);
    wrapped.next_block(block);
    wrapped.next_block(block);
    next.next_block(expected);
    QCOMPARE(block, expected);
  }

  void os_entropy_differs() {
    QVERIFY(os_random_u64() != os_random_u64());  // 2^-64 chance of a false failure
  }

  void secure_gaussian_is_standard_normal() {
    auto noise = privacy::GaussianNoise::secure();
    const Index n = 200'000;
    Vector z(n);
    noise.fill(1.0, z);
    // 20 equiprobable bins of N(0, 1).
    std::vector<double> edges;
    for (int b = 1; b < 20; ++b) {
      double lo = -10, hi = 10;  // invert the CDF by bisection
      for (int it = 0; it < 80; ++it) {
        const double mid = 0.5 * (lo + hi);
        (normal_cdf(mid) < b / 20.0 ? lo : hi) = mid;
      }
      edges.push_back(lo);
    }
    std::vector<double> counts(20, 0);
    double sum = 0, sum_sq = 0;
    for (Index i = 0; i < n; ++i) {
      const double v = z[i];
      sum += v;
      sum_sq += v * v;
      std::size_t bin = 0;
      while (bin < edges.size() && v >= edges[bin]) ++bin;
      ++counts[bin];
    }
    double stat = 0;
    for (double c : counts) stat += (c - n / 20.0) * (c - n / 20.0) / (n / 20.0);
    QVERIFY2(stat < 50.0, qPrintable(QString("chi-square %1 (df 19; p = 1e-4 at 49.4)").arg(stat)));
    QVERIFY(std::abs(sum / n) < 0.02);
    QVERIFY(std::abs(sum_sq / n - 1.0) < 0.02);
    // A second secure generator starts elsewhere.
    auto other = privacy::GaussianNoise::secure();
    Vector w(8);
    other.fill(1.0, w);
    QVERIFY(w.head(8) != z.head(8));
  }

  void secure_oracles_ignore_the_seed() {
    Matrix x(400, 3);
    Rng rng(1);
    for (Index i = 0; i < x.rows(); ++i)
      for (Index j = 0; j < x.cols(); ++j) x(i, j) = static_cast<float>(rng.uniform());
    const data::Dataset train = testing::make_points(x);
    privacy::DpSettings settings;
    settings.noise_multiplier = 1.0;
    settings.clip = 1.0;
    settings.lot_size = 40;
    testing::QuadraticTestModel m1(3), m2(3), m3(3);
    privacy::NoisyGradientOracle seeded1(train, m1, settings, 7), seeded2(train, m2, settings, 7);
    privacy::NoisyGradientOracle secure1(train, m3, settings, 7, true);
    testing::QuadraticTestModel m4(3);
    privacy::NoisyGradientOracle secure2(train, m4, settings, 7, true);
    Vector g1(3), g2(3), s1(3), s2(3);
    seeded1.query(g1);
    seeded2.query(g2);
    QCOMPARE(g1, g2);  // the seeded path is reproducible
    secure1.query(s1);
    secure2.query(s2);
    QVERIFY(s1 != s2);  // same seed, different noise
    QVERIFY(s1 != g1);
    bool lots_differ = secure1.last_lot_indices() != secure2.last_lot_indices();
    for (int i = 0; i < 5 && !lots_differ; ++i) {
      secure1.query(s1);
      secure2.query(s2);
      lots_differ = secure1.last_lot_indices() != secure2.last_lot_indices();
    }
    QVERIFY(lots_differ);
  }
};

DPLAB_TEST_GUILESS_MAIN(TestSecureNoise)
#include "test_secure_noise.moc"
