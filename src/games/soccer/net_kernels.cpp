#include "games/soccer/net_kernels.hpp"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace arena::soccer {

void reference_add_columns(const float* columns, int width, std::span<const std::uint16_t> active,
                           const float* bias, float* sum) {
  for (int i = 0; i < width; ++i) sum[i] = bias[i];
  for (const std::uint16_t input : active) {
    const float* column = columns + static_cast<std::size_t>(input) * width;
    for (int i = 0; i < width; ++i) sum[i] += column[i];
  }
}

void reference_multiply_rows(const float* rows, int count, int width, const float* bias,
                             const float* x, float* out) {
  for (int j = 0; j < count; ++j) {
    const float* row = rows + static_cast<std::size_t>(j) * width;
    float sum = bias[j];
    for (int i = 0; i < width; ++i) sum += row[i] * x[i];
    out[j] = sum;
  }
}

void reference_multiply_some_rows(const float* rows, int width, std::span<const int> which,
                                  const float* bias, const float* x, float* out) {
  for (std::size_t k = 0; k < which.size(); ++k)
    reference_multiply_rows(rows + static_cast<std::size_t>(which[k]) * width, 1, width,
                            bias + which[k], x, out + k);
}

#if defined(__SSE2__)
namespace {

// Four rows' sums at once, lane k row r[k]'s, from their biases.
__m128 four_rows(const float* const r[4], std::size_t width, __m128 acc, const float* x) {
  std::size_t i = 0;
  for (; i + 4 <= width; i += 4) {
    __m128 a = _mm_loadu_ps(r[0] + i), b = _mm_loadu_ps(r[1] + i);
    __m128 c = _mm_loadu_ps(r[2] + i), d = _mm_loadu_ps(r[3] + i);
    _MM_TRANSPOSE4_PS(a, b, c, d);  // a: the four rows' weights of input i, b of i + 1, ...
    acc = _mm_add_ps(acc, _mm_mul_ps(a, _mm_set1_ps(x[i])));
    acc = _mm_add_ps(acc, _mm_mul_ps(b, _mm_set1_ps(x[i + 1])));
    acc = _mm_add_ps(acc, _mm_mul_ps(c, _mm_set1_ps(x[i + 2])));
    acc = _mm_add_ps(acc, _mm_mul_ps(d, _mm_set1_ps(x[i + 3])));
  }
  for (; i < width; ++i) {
    const __m128 weights = _mm_set_ps(r[3][i], r[2][i], r[1][i], r[0][i]);
    acc = _mm_add_ps(acc, _mm_mul_ps(weights, _mm_set1_ps(x[i])));
  }
  return acc;
}

// Units [offset, offset + 4 kRegs) of add_columns, their sums held in kRegs registers.
template <int kRegs>
void add_column_block(const float* columns, std::size_t width,
                      std::span<const std::uint16_t> active, const float* bias, float* sum,
                      std::size_t offset) {
  __m128 acc[kRegs];
  for (int r = 0; r < kRegs; ++r) acc[r] = _mm_loadu_ps(bias + offset + 4 * r);
  for (const std::uint16_t input : active) {
    const float* column = columns + input * width + offset;
    for (int r = 0; r < kRegs; ++r) acc[r] = _mm_add_ps(acc[r], _mm_loadu_ps(column + 4 * r));
  }
  for (int r = 0; r < kRegs; ++r) _mm_storeu_ps(sum + offset + 4 * r, acc[r]);
}

}  // namespace

void add_columns(const float* columns, int width, std::span<const std::uint16_t> active,
                 const float* bias, float* sum) {
  const auto w = static_cast<std::size_t>(width);
  std::size_t offset = 0;
  // Eight registers of sums leave the other eight for the columns' loads.
  for (; offset + 32 <= w; offset += 32) add_column_block<8>(columns, w, active, bias, sum, offset);
  for (; offset + 4 <= w; offset += 4) add_column_block<1>(columns, w, active, bias, sum, offset);
  for (; offset < w; ++offset) {
    float s = bias[offset];
    for (const std::uint16_t input : active) s += columns[input * w + offset];
    sum[offset] = s;
  }
}

void multiply_rows(const float* rows, int count, int width, const float* bias, const float* x,
                   float* out) {
  const auto w = static_cast<std::size_t>(width);
  int j = 0;
  for (; j + 4 <= count; j += 4) {
    const float* r = rows + static_cast<std::size_t>(j) * w;
    const float* const four[4] = {r, r + w, r + 2 * w, r + 3 * w};
    _mm_storeu_ps(out + j, four_rows(four, w, _mm_loadu_ps(bias + j), x));
  }
  if (j < count)
    reference_multiply_rows(rows + static_cast<std::size_t>(j) * w, count - j, width, bias + j, x,
                            out + j);
}

void multiply_some_rows(const float* rows, int width, std::span<const int> which, const float* bias,
                        const float* x, float* out) {
  const auto w = static_cast<std::size_t>(width);
  std::size_t k = 0;
  for (; k + 4 <= which.size(); k += 4) {
    const float* const four[4] = {rows + which[k] * w, rows + which[k + 1] * w,
                                  rows + which[k + 2] * w, rows + which[k + 3] * w};
    const __m128 biases =
        _mm_set_ps(bias[which[k + 3]], bias[which[k + 2]], bias[which[k + 1]], bias[which[k]]);
    _mm_storeu_ps(out + k, four_rows(four, w, biases, x));
  }
  if (k < which.size())
    reference_multiply_some_rows(rows, width, which.subspan(k), bias, x, out + k);
}

#else

void add_columns(const float* columns, int width, std::span<const std::uint16_t> active,
                 const float* bias, float* sum) {
  reference_add_columns(columns, width, active, bias, sum);
}

void multiply_rows(const float* rows, int count, int width, const float* bias, const float* x,
                   float* out) {
  reference_multiply_rows(rows, count, width, bias, x, out);
}

void multiply_some_rows(const float* rows, int width, std::span<const int> which, const float* bias,
                        const float* x, float* out) {
  reference_multiply_some_rows(rows, width, which, bias, x, out);
}

#endif

}  // namespace arena::soccer
