#pragma once
// The two sums the Paper Soccer networks (value_net.hpp, policy_net.hpp) are made of, with SSE
// registers where the CPU has them (every x86-64 does). Each adds in exactly the order of the
// plain loops (`reference_*`), so a network gives bit for bit the same output either way and the
// search the same tree: only the speed differs.
//
// Why by hand: the compiler keeps a runtime-sized accumulator in memory (a load and a store per
// input and unit), and it may not vectorize a dot product at all, since that would reorder the
// sum; here the accumulators stay in registers and the dot products are done four rows at a
// time (a 4x4 block of weights turned over in registers), each row still summed in its order.
#include <cstddef>
#include <cstdint>
#include <span>

namespace arena::soccer {

// sum[i] = bias[i] + the columns[input * width + i] of each active input, added in their order.
void add_columns(const float* columns, int width, std::span<const std::uint16_t> active,
                 const float* bias, float* sum);
// out[j] = bias[j] + sum over i of rows[j * width + i] * x[i], for i from 0 up.
void multiply_rows(const float* rows, int count, int width, const float* bias, const float* x,
                   float* out);

// The same for the rows `which` only: out[k] = row which[k]'s (bias[which[k]] + its sum).
void multiply_some_rows(const float* rows, int width, std::span<const int> which, const float* bias,
                        const float* x, float* out);

// The plain loops, the definition of all three (for tests).
void reference_add_columns(const float* columns, int width, std::span<const std::uint16_t> active,
                           const float* bias, float* sum);
void reference_multiply_rows(const float* rows, int count, int width, const float* bias,
                             const float* x, float* out);
void reference_multiply_some_rows(const float* rows, int width, std::span<const int> which,
                                  const float* bias, const float* x, float* out);

}  // namespace arena::soccer
