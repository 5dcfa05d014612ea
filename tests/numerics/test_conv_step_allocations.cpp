// No heap allocation in a conv network's DP step (issue #30; network_layers.h and conv_network.h
// promise scratch sized by reserve(), none after): after one warm-up call, clipped_gradient_sum
// (per-example norms + clipped sum) and weighted_gradient_sum on a lot of the same size must not
// call malloc, for the cnn, the conv-autoencoder and the wide-cnn, for a network with forced ghost
// norms and for one that takes the implicit-im2col kernels' other paths (issue #49), nor the
// batch-parallel step over its fixed chunks on 1 and 2 threads (issue #49's one run on two
// cores); nor must secure mode's release of a noisy gradient (privacy/mechanisms/
// grid_gaussian_noise.h, issue #44).
//
// How allocations are counted: EIGEN_RUNTIME_NO_MALLOC cannot be used here. It must be defined
// before Eigen is included in EVERY translation unit that allocates through Eigen — the engine
// library is compiled without it (and defining it in one test file of the numerics runner would
// give Eigen's inline functions two definitions in one program). Counting operator new would
// miss Eigen, which allocates with std::malloc. So this file interposes malloc, calloc and
// realloc for the runner executable (glibc resolves them to the executable's definitions): each
// bumps a counter and forwards to glibc's __libc_* allocator, so behaviour is unchanged for every
// other suite of the runner. The counter is read around the step only. (aligned_alloc /
// posix_memalign are not interposed: neither Eigen nor the engine uses them.) Under ASan/TSan,
// whose runtimes own malloc, the interposition is compiled out and the test skips.
#include <QTest>
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "core/chacha20.h"
#include "core/types.h"
#include "models/batch_parallel_model.h"
#include "models/conv_network.h"
#include "models/model.h"
#include "models/network_description.h"
#include "privacy/mechanisms/grid_gaussian_noise.h"
#include "support/random_batch.h"
#include "support/test_registry.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DPLAB_COUNT_MALLOC 0
#else
#define DPLAB_COUNT_MALLOC 1
#endif

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

#if DPLAB_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);

void* malloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(pointer, size);
}
}
#endif

using namespace dplab;

namespace {

// Allocations made by `body`.
template <typename Body>
long allocations_in(Body&& body) {
  const long before = g_allocations.load(std::memory_order_relaxed);
  body();
  return g_allocations.load(std::memory_order_relaxed) - before;
}

}  // namespace

class TestConvStepAllocations : public QObject {
  Q_OBJECT

 private slots:
  void counterSeesAllocations() {
    if (!DPLAB_COUNT_MALLOC) QSKIP("malloc is owned by the sanitizer runtime");
    // The counter itself works: an Eigen matrix and a std::string each allocate.
    QVERIFY(allocations_in([] {
              Matrix m(64, 64);
              m.setZero();
              QVERIFY(m.sum() == 0.f);
            }) >= 1);
    QVERIFY(allocations_in([] {
              auto s = std::make_unique<std::string>(100, 'x');
              QVERIFY(s->size() == 100);
            }) >= 1);
  }

  void dpStepDoesNotAllocate_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<int>("rows");
    QTest::newRow("cnn") << QString::fromStdString(models::builtin_network_json("cnn")) << 40;
    QTest::newRow("conv-autoencoder")
        << QString::fromStdString(models::builtin_network_json("conv-autoencoder")) << 5;
    QTest::newRow("wide-cnn") << QString::fromStdString(models::builtin_network_json("wide-cnn"))
                              << 3;
    QTest::newRow("ghost norms") << QString(
                                        R"({"name": "ghost", "input": [28, 28, 1], "norms": "ghost",
            "layers": [{"type": "conv", "channels": 4, "kernel": 5, "stride": 2},
                       {"type": "relu"}, {"type": "max_pool", "kernel": 2, "stride": 2},
                       {"type": "conv_transpose", "channels": 3, "kernel": 2, "stride": 2},
                       {"type": "sigmoid"}, {"type": "avg_pool", "kernel": 2, "stride": 2},
                       {"type": "dense", "units": 10}]})")
                                 << 37;
    // The implicit-im2col paths the cnn does not take (AVX-512 builds, conv_kernels.h): a padded
    // layer's input gradient through its padded gradient maps, 48 channels, a stride-1 one-channel
    // forward, and a relu absorbed by a max-pool after a layer of 3 vectors of channels.
    QTest::newRow("implicit kernels") << QString(R"({"name": "wide", "input": [28, 28, 1],
            "layers": [{"type": "conv", "channels": 16, "kernel": 3, "padding": 1},
                       {"type": "relu"},
                       {"type": "conv", "channels": 48, "kernel": 3, "stride": 2, "padding": 1},
                       {"type": "relu"}, {"type": "max_pool", "kernel": 2, "stride": 2},
                       {"type": "dense", "units": 16}, {"type": "relu"},
                       {"type": "dense", "units": 10}]})")
                                      << 9;
  }
  void dpStepDoesNotAllocate() {
    if (!DPLAB_COUNT_MALLOC) QSKIP("malloc is owned by the sanitizer runtime");
    QFETCH(QString, json);
    QFETCH(int, rows);
    auto net = models::make_network(json.toStdString(), 784, 10);
    net->initialize(3);
    const testing::RandomBatch lot = testing::random_batch(rows, 784, 10, 8);
    Vector sum(net->num_params()), norms(rows), weights = Vector::Constant(rows, 0.5f);
    net->clipped_gradient_sum(lot.x, lot.y, 1.0, sum, norms);  // warm-up: sizes the scratch
    const long clipped =
        allocations_in([&] { net->clipped_gradient_sum(lot.x, lot.y, 1.0, sum, norms); });
    QCOMPARE(clipped, 0L);
    net->weighted_gradient_sum(lot.x, lot.y, weights, sum);
    const long weighted =
        allocations_in([&] { net->weighted_gradient_sum(lot.x, lot.y, weights, sum); });
    QCOMPARE(weighted, 0L);
    // A smaller lot after a larger one reuses the scratch too.
    const long smaller = allocations_in([&] {
      net->clipped_gradient_sum(lot.x.topRows(rows / 2), lot.y.head(rows / 2), 1.0, sum,
                                norms.head(rows / 2));
    });
    QCOMPARE(smaller, 0L);
  }

  // The batch-parallel step (TBB arena) allocates nothing after its warm-up either: the
  // replicas' scratch, the partial sums of its fixed chunks and the arena are made once — for a
  // lot of 2 chunks and one of 8 (issue #49's partition), on 1 and 2 threads, clipped and weighted.
  void batchParallelStepDoesNotAllocate_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("threads");
    QTest::newRow("2 chunks, 2 threads") << 170 << 2;
    QTest::newRow("8 chunks, 2 threads") << 650 << 2;
    QTest::newRow("8 chunks, 1 thread") << 650 << 1;
  }
  void batchParallelStepDoesNotAllocate() {
    if (!DPLAB_COUNT_MALLOC) QSKIP("malloc is owned by the sanitizer runtime");
    QFETCH(int, rows);
    QFETCH(int, threads);
    auto net = models::make_network(models::builtin_network_json("cnn"), 784, 10);
    models::BatchParallelModel parallel(*net, threads);
    const testing::RandomBatch lot = testing::random_batch(rows, 784, 10, 8);
    Vector sum(parallel.num_params()), norms(rows), weights = Vector::Constant(rows, 0.5f);
    for (int warm = 0; warm < 3; ++warm) {
      parallel.clipped_gradient_sum(lot.x, lot.y, 1.0, sum, norms);
      parallel.weighted_gradient_sum(lot.x, lot.y, weights, sum);
    }
    const long clipped =
        allocations_in([&] { parallel.clipped_gradient_sum(lot.x, lot.y, 1.0, sum, norms); });
    QCOMPARE(clipped, 0L);
    const long weighted =
        allocations_in([&] { parallel.weighted_gradient_sum(lot.x, lot.y, weights, sum); });
    QCOMPARE(weighted, 0L);
  }

  // Secure mode's release (issue #44): the keystream, the proposals and the noise live in
  // buffers made with the object, so a TLNN-sized gradient's releases allocate nothing. (The
  // exact digit computation of the sampler does allocate; about 5 in 10^6 proposals reach it, and
  // with this key none of these do.)
  void securePrivatizeDoesNotAllocate() {
    if (!DPLAB_COUNT_MALLOC) QSKIP("malloc is owned by the sanitizer runtime");
    ChaCha20::Key key{};
    for (std::uint32_t i = 0; i < 8; ++i) key[i] = 0x01234567u * (i + 3);
    privacy::GridGaussianNoise grid(1.0, 1.0, 79'510, ChaCha20(key, {4u, 5u, 6u}));
    Vector sum = Vector::Constant(79'510, 0.25f);
    grid.privatize(sum, 1.0 / 250);
    const long released = allocations_in([&] {
      for (int step = 0; step < 4; ++step) {
        sum.setConstant(0.25f);
        grid.privatize(sum, 1.0 / 250);
      }
    });
    QCOMPARE(released, 0L);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestConvStepAllocations)
#include "test_conv_step_allocations.moc"
