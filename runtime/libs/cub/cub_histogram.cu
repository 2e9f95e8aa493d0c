// np.histogram's counting on the GPU: cub::DeviceHistogram::HistogramEven over int32 bin ids
// (its counters privatized in shared memory where the bins fit): the counts of integers are exact
// in any order, so no sort is needed for the same bits every run.

#include <cub/device/device_histogram.cuh>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo {

void count_bins(const std::int32_t* ids, std::int64_t m, std::int32_t nbins, std::int64_t* counts, cudaStream_t stream,
                const Workspace& ws) {
  if (nbins <= 0) return;
  if (m == 0) {
    LOOM_CHECK_CUDA(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(nbins) * sizeof(std::int64_t), stream));
    return;
  }
  // Counters of CUB's atomic type, the same bits as int64 for counts below 2^63. Ids outside
  // [0, nbins) are not counted (elements outside every bin).
  auto* out = reinterpret_cast<unsigned long long*>(counts);
  LOOM_CUB("cub::DeviceHistogram::HistogramEven", ws, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, ids, out, nbins + 1, std::int32_t{0}, nbins, m, stream);
  });
}

}  // namespace loom::algo
