// PNG images for tissue: and fields: (shape: image): the decoder against pictures Pillow wrote
// from formulas (tests/data/png/make_fixtures.py), every colour type, 1 to 16 bits, each row
// filter; broken files named in the message; a mask from a picture with a pixel per node equals
// the analytic shape's node for node; the config's keys and their mistakes.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/png_image.hpp"
#include "model/problem.hpp"
#include "model/tissue.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

constexpr index_t kWidth = 13, kHeight = 7;

std::string fixture(const std::string& name) {
  return fhn::test::source_path("tests/data/png/" + name);
}

// Checks every pixel of `image` against value(x, y).
template <class Value>
void check_pixels(const fhn::Picture& image, Value value) {
  REQUIRE(image.width == kWidth);
  REQUIRE(image.height == kHeight);
  real worst = 0.0;
  for (index_t y = 0; y < kHeight; ++y)
    for (index_t x = 0; x < kWidth; ++x)
      worst = std::max(worst, std::abs(image.at(x, y) - value(x, y)));
  CHECK(worst < 1e-15);
}

real luma(real r, real g, real b) { return 0.299 * r + 0.587 * g + 0.114 * b; }

// n mod levels as a sample of that many levels scaled to [0, 1].
real level(index_t n, index_t levels) {
  return static_cast<real>(n % levels) / static_cast<real>(levels - 1);
}

}  // namespace

TEST_CASE("PNG pictures of every colour type and depth decode to their formulas") {
  if (!fhn::png_supported()) {
    CHECK_THROWS_AS(fhn::read_png(fixture("gray8.png")), fhn::ConfigError);
    return;  // a build without zlib: the stub's message is checked below
  }
  const auto gray = [](index_t x, index_t y) { return level(x * 37 + y * 91, 256); };
  check_pixels(fhn::read_png(fixture("gray8.png")), gray);
  // The same picture, its rows filtered None, Sub, Up, Average, Paeth, Paeth, Average.
  check_pixels(fhn::read_png(fixture("filters.png")), gray);
  check_pixels(fhn::read_png(fixture("gray16.png")),
               [](index_t x, index_t y) { return level(x * 5003 + y * 7919, 65536); });
  check_pixels(fhn::read_png(fixture("gray1.png")),
               [](index_t x, index_t y) { return static_cast<real>((x + y) % 2); });
  check_pixels(fhn::read_png(fixture("gray_alpha8.png")), [&](index_t x, index_t y) {
    return gray(x, y) * level(x * y * 17, 256);
  });
  const auto rgb = [](index_t x, index_t y) {
    return luma(level(x * 37, 256), level(y * 91, 256), level((x + y) * 53, 256));
  };
  check_pixels(fhn::read_png(fixture("rgb8.png")), rgb);
  check_pixels(fhn::read_png(fixture("rgba8.png")), [&](index_t x, index_t y) {
    return rgb(x, y) * level(x * y * 17, 256);
  });
  // Palette black, red, green, (40, 80, 200) with alpha 1, 1, 128/255, 0.
  const real colours[4] = {0.0, luma(1.0, 0.0, 0.0), luma(0.0, 1.0, 0.0) * (128.0 / 255.0), 0.0};
  check_pixels(fhn::read_png(fixture("palette.png")),
               [&](index_t x, index_t y) { return colours[(x + 2 * y) % 4]; });
}

TEST_CASE("a broken or missing PNG is named with what is wrong") {
  if (!fhn::png_supported()) {
    CHECK(fhn::test::contains(
        fhn::test::thrown_message<fhn::ConfigError>([] { fhn::read_png("x.png"); }),
        "this build reads no PNG files (zlib was not found"));
    return;
  }
  const fhn::test::TempDir dir;
  auto error_of = [&](const std::string& bytes) {
    const std::string path = (dir / "broken.png").string();
    std::ofstream(path, std::ios::binary) << bytes;
    return fhn::test::thrown_message<fhn::ConfigError>([&] { fhn::read_png(path); });
  };
  CHECK(fhn::test::contains(error_of("GIF89a"),
                            "broken.png: not a PNG fhnsim can read: no PNG signature"));
  std::ifstream in(fixture("gray8.png"), std::ios::binary);
  std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(fhn::test::contains(error_of(good.substr(0, 40)),
                            "the file ends inside a chunk (no IEND)"));
  CHECK(fhn::test::contains(error_of(good.substr(0, 50)), "a chunk runs past the end of the file"));
  std::string bad_crc = good;
  bad_crc[20] = static_cast<char>(bad_crc[20] ^ 1);  // a byte of IHDR's data
  CHECK(fhn::test::contains(error_of(bad_crc), "chunk IHDR fails its CRC"));
  CHECK(fhn::test::contains(
      fhn::test::thrown_message<fhn::ConfigError>(
          [&] { fhn::read_png((dir / "none.png").string()); }),
      "none.png: cannot open the image file"));
  // In a config with probes: the file's error, the probes untested (their tissue has no shape).
  CHECK(fhn::test::contains(
      fhn::test::config_error("domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n"
                              "output: {probes: [[5, 5]]}\ntissue: [{shape: image, file: " +
                              (dir / "none.png").string() + "}]\n"),
      "tissue[0].file: " + (dir / "none.png").string() + ": cannot open the image file"));
}

TEST_CASE("a tissue mask from a picture with a pixel per node equals the analytic shape's") {
  // disc_41x21.png: dark inside a disc of radius 3 about (10, 5) of a 20 x 10 sheet at dx = 0.5,
  // one pixel per node (make_fixtures.py); its dark pixels removed give the disc's mask exactly.
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\ntime: {dt: 0.05}\n"
                            "output: {probes: [[2, 2]]}\n";
  if (!fhn::png_supported()) {
    CHECK(fhn::test::contains(fhn::test::config_error(sheet + "tissue: [{shape: image, file: " +
                                                      fixture("disc_41x21.png") + "}]\n"),
                              "this build reads no PNG files"));
    return;
  }
  const fhn::Problem picture = fhn::make_problem(fhn::test::config_from(
      sheet + "tissue: [{shape: image, file: " + fixture("disc_41x21.png") +
      ", inside: below, op: remove}]\n"));
  const fhn::Problem disc = fhn::make_problem(fhn::test::config_from(
      sheet + "tissue: [{shape: disc, center: [10, 5], radius: 3}]\n"));
  REQUIRE(!disc.fields.node_type.empty());
  CHECK(picture.fields.node_type == disc.fields.node_type);
  // A D field from the same picture: 0 in the disc.
  const fhn::Problem scar = fhn::make_problem(fhn::test::config_from(
      sheet + "fields: [{parameter: diffusion, shape: image, file: " + fixture("disc_41x21.png") +
      ", inside: below, value: 0}]\n"));
  REQUIRE(scar.fields.diffusion.values.size() == 41 * 21);
  CHECK(scar.fields.diffusion.values[20 + 41 * 10] == 0.0);  // (10, 5)
  CHECK(scar.fields.diffusion.values[2 + 41 * 2] == 1.0);    // (1, 1)
}

TEST_CASE("image regions: keys, defaults, the resolved config, and mistakes located") {
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\ntime: {dt: 0.05}\n"
                            "output: {probes: []}\n";
  if (!fhn::png_supported()) {
    CHECK(fhn::test::contains(
        fhn::test::config_error(sheet + "tissue: [{shape: image, file: a.png}]\n"),
        "this build reads no PNG files"));
    return;
  }
  const fhn::Config c = fhn::test::config_from(
      sheet + "tissue: [{shape: image, file: " + fixture("gray8.png") + "}]\n");
  const fhn::TissueRegion& r = c.tissue[0];
  CHECK(r.threshold == 0.5);
  CHECK(r.above);
  CHECK(r.x_min == 0.0);
  CHECK(r.x_max == 20.0);
  CHECK(r.y_max == 10.0);
  REQUIRE(r.image);
  CHECK(r.image->width == kWidth);
  // The picture's top-left pixel, value 0, covers the sheet's top-left corner; its bottom-right,
  // (12 37 + 6 91) mod 256 = 998 mod 256 = 230, the bottom-right corner.
  CHECK_FALSE(fhn::region_contains(r, {0.0, 10.0, 0.0}));
  CHECK(fhn::region_contains(r, {20.0, 0.0, 0.0}));
  CHECK_FALSE(fhn::region_contains(r, {25.0, 0.0, 0.0}));  // beyond the picture
  // The resolved config names the file by its absolute path and reads back the same.
  const fhn::Config again = fhn::load_config_text(fhn::to_yaml(c), "again.yaml");
  CHECK(again.tissue[0].file == r.file);
  CHECK(again.tissue[0].image->values == r.image->values);

  CHECK(fhn::test::contains(fhn::test::config_error(sheet + "tissue: [{shape: image}]\n"),
                            "missing required key 'tissue[0].file' (a PNG or .vti file)"));
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "tissue: [{shape: image, file: no_such.png}]\n"),
      "tissue[0].file: "));
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "tissue: [{shape: image, file: no_such.png}]\n"),
      "no_such.png: cannot open the image file"));
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "tissue: [{shape: image, file: " + fixture("gray8.png") +
                              ", radius: 2}]\n"),
      "tissue[0].radius: not a key of a 'image' region"));
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "tissue: [{shape: image, file: " + fixture("gray8.png") +
                              ", inside: inward}]\n"),
      "tissue[0].inside"));
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "fields: [{parameter: a, shape: image, file: " +
                              fixture("gray8.png") + ", value: 0.1, edge: 1}]\n"),
      "fields[0].edge: an image region's edge is its pixels' (no blend; edge: 0)"));
}

TEST_CASE("a field from a picture: from + (to - from) times each node's pixel") {
  // gray8.png (13 x 7) stretched over [0, 13] x [0, 7] of a 20 x 10 sheet at dx = 1: node (i, j)
  // falls in column floor(i / 13 x 13) = i and row floor((7 - j) / 7 x 7) = 7 - j (rows count
  // from the top; j = 0 is clamped into the last row); nodes off the picture keep model.a.
  const std::string sheet = "domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n"
                            "output: {probes: []}\n";
  const std::string entry = "fields: [{parameter: a, type: image, file: " + fixture("gray8.png") +
                            ", x_max: 13, y_max: 7, from: 0.1, to: 0.3}]\n";
  if (!fhn::png_supported()) {
    CHECK(fhn::test::contains(fhn::test::config_error(sheet + entry), "reads no PNG files"));
    return;
  }
  const fhn::Config c = fhn::test::config_from(sheet + entry);
  const fhn::Problem p = fhn::make_problem(c);
  const std::vector<real>& a = p.fields.kinetics[0].values;
  REQUIRE(a.size() == 21 * 11);
  const fhn::Picture picture = fhn::read_png(fixture("gray8.png"));
  for (index_t j = 1; j <= 6; ++j)
    for (index_t i = 0; i <= 12; ++i) {
      CAPTURE(i);
      CAPTURE(j);
      const real pixel = picture.at(i, 7 - j);
      CHECK(a[static_cast<std::size_t>(i + 21 * j)] == doctest::Approx(0.1 + 0.2 * pixel));
    }
  CHECK(a[static_cast<std::size_t>(15 + 21 * 3)] == 0.01);  // off the picture: model.a
  // The resolved config reads back the same entry; its keys are checked.
  const fhn::Config again = fhn::load_config_text(fhn::to_yaml(c), "again.yaml");
  REQUIRE(again.fields.size() == 1);
  CHECK(again.fields[0].type == fhn::FieldType::image);
  CHECK(again.fields[0].region.file == c.fields[0].region.file);
  CHECK(again.fields[0].to == 0.3);
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "fields: [{parameter: a, type: image, file: " +
                              fixture("gray8.png") + ", from: 0.1, to: 3}]\n"),
      "fields[0].to: value 3 is out of range for model.a; expected a number in [0, 1]"));
  CHECK(fhn::test::contains(
      fhn::test::config_error(sheet + "fields: [{parameter: a, type: image, file: " +
                              fixture("gray8.png") + ", from: 0.1, to: 0.2, value: 1}]\n"),
      "fields[0].value: not a key of a image field entry (its keys: parameter, type, file, "
      "array, x_min, x_max, y_min, y_max, from, to)"));
}
