// A PNG decoder for masks and fields (ISO/IEC 15948, "PNG (Portable Network Graphics)
// Specification, Second Edition", W3C Recommendation 2003): the chunks, zlib's inflate, the five
// row filters and every colour type and bit depth, reduced to one grey value per pixel.
#include "model/png_image.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/regular_file.hpp"

namespace fhn {
namespace {

constexpr index_t kMaxPixels = index_t{1} << 28;

// The error every malformed file gets: "<path>: not a PNG fhnsim can read: <why>".
[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw ConfigError(path + ": not a PNG fhnsim can read: " + why);
}

std::uint32_t big_endian(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

// The Paeth predictor (the standard's section 9.4): of a (left), b (up), c (up-left), the one
// nearest to p = a + b - c, ties to a, then b.
int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Undoes one row's filter in place: Raw(x) = Filt(x) + predictor, bytes mod 256, where the
// predictor uses a = the byte `bpp` to the left, b = the byte above, c = above-left (0 outside).
void unfilter(int type, unsigned char* row, const unsigned char* previous, std::size_t bytes,
              std::size_t bpp, const std::string& path) {
  for (std::size_t x = 0; x < bytes; ++x) {
    const int a = x >= bpp ? row[x - bpp] : 0;
    const int b = previous ? previous[x] : 0;
    const int c = x >= bpp && previous ? previous[x - bpp] : 0;
    int predictor = 0;
    switch (type) {
      case 0: predictor = 0; break;            // None
      case 1: predictor = a; break;            // Sub
      case 2: predictor = b; break;            // Up
      case 3: predictor = (a + b) / 2; break;  // Average
      case 4: predictor = paeth(a, b, c); break;
      default: fail(path, "a row has filter type " + std::to_string(type) + " (expected 0..4)");
    }
    row[x] = static_cast<unsigned char>((row[x] + predictor) & 0xff);
  }
}

// Sample k of a row of `depth`-bit samples (1, 2, 4: packed from the high bits; 16: big-endian).
unsigned sample(const unsigned char* row, std::size_t k, int depth) {
  switch (depth) {
    case 8: return row[k];
    case 16: return (unsigned{row[2 * k]} << 8) | row[2 * k + 1];
    default: {
      const std::size_t bit = k * static_cast<std::size_t>(depth);
      const unsigned shift = 8u - static_cast<unsigned>(depth) - static_cast<unsigned>(bit % 8);
      return (row[bit / 8] >> shift) & ((1u << depth) - 1u);
    }
  }
}

// The luma of a colour (ITU-R BT.601 weights).
real luma(real r, real g, real b) { return 0.299 * r + 0.587 * g + 0.114 * b; }

}  // namespace

bool png_supported() { return true; }

Picture read_png(const std::string& path) {
  constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 30;
  const std::vector<unsigned char> file = read_regular_file(path, "the image file", kMaxFileBytes);
  if (file.size() > kMaxFileBytes) fail(path, "larger than 1 GiB");
  static constexpr unsigned char kSignature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (file.size() < 8 || !std::equal(kSignature, kSignature + 8, file.begin()))
    fail(path, "no PNG signature");

  // 1. The chunks: length, type, data, CRC-32 of type and data.
  std::uint32_t width = 0, height = 0;
  int depth = 0, colour = -1;
  std::vector<std::array<real, 4>> palette;  // r, g, b, alpha in [0, 1]
  std::vector<unsigned char> compressed;
  bool ended = false;
  for (std::size_t at = 8; !ended;) {
    if (at + 12 > file.size()) fail(path, "the file ends inside a chunk (no IEND)");
    const std::uint32_t length = big_endian(&file[at]);
    if (length > file.size() - at - 12) fail(path, "a chunk runs past the end of the file");
    const std::string type(file.begin() + static_cast<std::ptrdiff_t>(at + 4),
                           file.begin() + static_cast<std::ptrdiff_t>(at + 8));
    const unsigned char* data = &file[at + 8];
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), &file[at + 4], length + 4);
    if (crc != big_endian(data + length)) fail(path, "chunk " + type + " fails its CRC");
    if (type == "IHDR") {
      if (length != 13) fail(path, "IHDR is not 13 bytes");
      width = big_endian(data);
      height = big_endian(data + 4);
      depth = data[8];
      colour = data[9];
      if (data[10] != 0 || data[11] != 0) fail(path, "unknown compression or filter method");
      if (data[12] != 0) fail(path, "interlaced (Adam7); save it without interlacing");
    } else if (type == "PLTE") {
      for (std::uint32_t k = 0; k + 3 <= length; k += 3)
        palette.push_back({data[k] / 255.0, data[k + 1] / 255.0, data[k + 2] / 255.0, 1.0});
    } else if (type == "tRNS" && colour == 3) {
      for (std::uint32_t k = 0; k < length && k < palette.size(); ++k)
        palette[k][3] = data[k] / 255.0;
    } else if (type == "IDAT") {
      compressed.insert(compressed.end(), data, data + length);
    } else if (type == "IEND") {
      ended = true;
    }
    at += 12 + static_cast<std::size_t>(length);
  }

  // 2. The format: colour type and bit depth (the standard's table 11.1).
  int channels = 0;
  bool depth_ok = false;
  switch (colour) {
    case 0:
      channels = 1;
      depth_ok = depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
      break;
    case 2: channels = 3; depth_ok = depth == 8 || depth == 16; break;
    case 3: channels = 1; depth_ok = depth == 1 || depth == 2 || depth == 4 || depth == 8; break;
    case 4: channels = 2; depth_ok = depth == 8 || depth == 16; break;
    case 6: channels = 4; depth_ok = depth == 8 || depth == 16; break;
    default: fail(path, colour < 0 ? "no IHDR chunk" : "colour type " + std::to_string(colour));
  }
  if (!depth_ok)
    fail(path, "bit depth " + std::to_string(depth) + " with colour type " +
                   std::to_string(colour));
  if (width == 0 || height == 0 || index_t{width} * index_t{height} > kMaxPixels)
    fail(path, std::to_string(width) + " x " + std::to_string(height) +
                   " pixels (1 to 2^28 pixels are read)");
  if (colour == 3 && palette.empty()) fail(path, "a palette image without PLTE");

  // 3. Inflate: each row is a filter byte and ceil(width channels depth / 8) bytes. What the
  // header declares is checked against the memory there is before anything that size is
  // allocated: the inflated rows and the picture's value per pixel.
  const std::size_t row_bytes = (std::size_t{width} * channels * depth + 7) / 8;
  const std::size_t bpp = std::max<std::size_t>(1, static_cast<std::size_t>(channels * depth) / 8);
  const std::size_t raw_bytes = std::size_t{height} * (row_bytes + 1);
  check_host_memory(static_cast<real>(raw_bytes) +
                        static_cast<real>(sizeof(real)) * width * static_cast<real>(height),
                    path + ": decoding its " + std::to_string(width) + " x " +
                        std::to_string(height) + " pixels (" + std::to_string(channels) +
                        " channels of " + std::to_string(depth) + " bits)",
                    "A picture of fewer pixels would fit (one pixel per node of the grid is "
                    "as fine as a mask or field can use).");
  std::vector<unsigned char> raw(raw_bytes);
  uLongf produced = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &produced, compressed.data(), static_cast<uLong>(compressed.size())) !=
          Z_OK ||
      produced != raw.size())
    fail(path, "the image data does not inflate to " + std::to_string(height) + " rows of " +
                   std::to_string(row_bytes) + " bytes");

  // 4. Unfilter row by row, then one value per pixel.
  Picture image;
  image.width = width;
  image.height = height;
  image.values.resize(std::size_t{width} * height);
  const real scale = 1.0 / static_cast<real>((1u << depth) - 1u);
  const unsigned char* previous = nullptr;
  for (std::size_t y = 0; y < height; ++y) {
    unsigned char* row = &raw[y * (row_bytes + 1)];
    unfilter(row[0], row + 1, previous, row_bytes, bpp, path);
    previous = row + 1;
    for (std::size_t x = 0; x < width; ++x) {
      real value = 0.0;
      auto s = [&](std::size_t channel) { return sample(row + 1, x * channels + channel, depth); };
      switch (colour) {
        case 0: value = s(0) * scale; break;
        case 2: value = luma(s(0) * scale, s(1) * scale, s(2) * scale); break;
        case 3: {
          const unsigned index = s(0);
          if (index >= palette.size()) fail(path, "a pixel's palette index is beyond PLTE");
          const std::array<real, 4>& p = palette[index];
          value = luma(p[0], p[1], p[2]) * p[3];
          break;
        }
        case 4: value = s(0) * scale * (s(1) * scale); break;
        case 6: value = luma(s(0) * scale, s(1) * scale, s(2) * scale) * (s(3) * scale); break;
        default: break;
      }
      image.values[y * width + x] = value;
    }
  }
  return image;
}

}  // namespace fhn
