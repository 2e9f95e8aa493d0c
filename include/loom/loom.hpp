#pragma once
// loom: lazy, fused NumPy-like arrays on NVIDIA GPUs. Include this one header.

#include <loom/array.hpp>
#include <loom/blas.hpp>
#include <loom/creation.hpp>
#include <loom/device.hpp>
#include <loom/dtype.hpp>
#include <loom/errors.hpp>
#include <loom/eval.hpp>
#include <loom/indexing.hpp>
#include <loom/interop.hpp>
#include <loom/io.hpp>
#include <loom/kernels.hpp>
#include <loom/linalg.hpp>
#include <loom/manipulation.hpp>
#include <loom/memory.hpp>
#include <loom/ops.hpp>
#include <loom/random.hpp>
#include <loom/reductions.hpp>
#include <loom/sets.hpp>
#include <loom/shape.hpp>
#include <loom/signal.hpp>
#include <loom/sorting.hpp>
#include <loom/sparse.hpp>
#include <loom/statistics.hpp>
