// vgpu-sim's end-of-run summary, --report and --progress as a user runs them, and the HTML
// report in headless Chromium (Debian's `chromium`): the page's script must finish without an
// error, every chart must have drawn data, and a screenshot must show the charts in colour.
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "CliRunner.h"

namespace vgpu {
namespace {

namespace fs = std::filesystem;

using test::runShell;
using test::ScratchDir;
using test::shellQuote;
using test::SimResult;
using test::slurp;

// lds_column_sum on the 1-CU platform: 24 workgroups of 256 work-items.
SimResult runColumnSum(const std::string& options, const ScratchDir& dir) {
  {
    std::ofstream in(dir.file("in.bin"), std::ios::binary);
    for (int i = 0; i < 24 * 1024; ++i) {
      const float v = float(i % 97) * 0.5f;
      in.write(reinterpret_cast<const char*>(&v), 4);
    }
  }
  return runShell(shellQuote(VGPU_SIM_PATH) + " run " + shellQuote(VGPU_REPORT_KERNEL) +
                      " lds_column_sum --grid 6144 --block 256 --platform tiny --arg " +
                      shellQuote("file:" + dir.file("in.bin")) + " --arg zeros:24576 " + options,
                  dir);
}

nlohmann::json withoutHostTime(nlohmann::json stats) {
  stats.erase("host_seconds");
  stats.erase("activity");
  return stats;
}

TEST(Summary, PrintedOnStderrAfterTheResultLine) {
  ScratchDir dir;
  const SimResult r = runColumnSum("", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("kernel lds_column_sum on tiny: "), std::string::npos) << r.out;
  for (const char* line :
       {"summary: ", " cycles = ", " us at 1725 MHz on tiny (1 CU); host ", "\n  issue      IPC ",
        " wave slots per CU (", "\n  stalls     ", " wave-cycles\n", "\n  hit rates  vector L1 ",
        "\n  bandwidth  LDS ", " GB/s, DRAM ", "\n  LDS        ", " bank-conflict cycles ("})
    EXPECT_NE(r.err.find(line), std::string::npos) << "missing '" << line << "' in:\n" << r.err;
  // The top stall reasons are named, with their shares.
  EXPECT_TRUE(std::regex_search(r.err, std::regex("stalls     [a-z_]+ [0-9.]+%"))) << r.err;
  EXPECT_EQ(r.err.find("report "), std::string::npos) << "no --report, no report line";
}

TEST(Summary, QuietPrintsNothing) {
  ScratchDir dir;
  const SimResult r = runColumnSum("--quiet --progress", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(Summary, AgreesWithTheStatistics) {
  ScratchDir dir;
  const SimResult r = runColumnSum("--stats " + shellQuote(dir.file("s.json")), dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto stats = nlohmann::json::parse(slurp(dir.file("s.json")));
  const uint64_t cycles = stats["cycles"];
  EXPECT_NE(r.err.find("summary: " + std::to_string(cycles / 1000) + ","), std::string::npos)
      << r.err;
  const uint64_t conflicts = stats["counters"]["lds0.conflict_cycles"];
  std::string grouped = std::to_string(conflicts);
  for (int i = int(grouped.size()) - 3; i > 0; i -= 3) grouped.insert(size_t(i), ",");
  EXPECT_NE(r.err.find("LDS        " + grouped + " bank-conflict cycles"), std::string::npos)
      << r.err;
  // Schema additions: per-dispatch records, wave slots, the LDS histogram and DRAM bytes.
  ASSERT_EQ(stats["dispatches"].size(), 1u);
  EXPECT_EQ(stats["dispatches"][0]["kernel"], "lds_column_sum");
  EXPECT_EQ(stats["dispatches"][0]["end_cycle"].get<uint64_t>() -
                stats["dispatches"][0]["start_cycle"].get<uint64_t>(),
            cycles);
  EXPECT_EQ(stats["wave_slots_per_cu"], 40);
  EXPECT_GT(stats["counters"]["lds0.conflict_degree_32_up"].get<uint64_t>(), 0u);
  EXPECT_GT(stats["counters"]["l2.dram_bytes"].get<uint64_t>(), 0u);
  EXPECT_FALSE(stats.contains("activity")) << "time series only with --report";
}

// Recording the time series and watching progress only read the model.
TEST(Report, ReportAndProgressChangeNoResult) {
  ScratchDir dir;
  const SimResult plain = runColumnSum("--quiet --stats " + shellQuote(dir.file("a.json")), dir);
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  const SimResult withReport =
      runColumnSum("--progress --report " + shellQuote(dir.file("r.html")) + " --stats " +
                       shellQuote(dir.file("b.json")),
                   dir);
  ASSERT_EQ(withReport.exitCode, 0) << withReport.err;
  const auto a = nlohmann::json::parse(slurp(dir.file("a.json")));
  const auto b = nlohmann::json::parse(slurp(dir.file("b.json")));
  EXPECT_EQ(withoutHostTime(a), withoutHostTime(b));
  ASSERT_TRUE(b.contains("activity"));
  const auto& act = b["activity"];
  EXPECT_EQ(act["origin_cycle"], b["start_cycle"]);
  EXPECT_LE(act["buckets"].get<uint64_t>(), 1000u);
  EXPECT_EQ(act["channels"]["wave_instructions"].size(), act["buckets"].get<size_t>());
  EXPECT_NE(withReport.err.find("  report     " + dir.file("r.html")), std::string::npos);
  const std::string html = slurp(dir.file("r.html"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // No address but the SVG namespace's name (an identifier, never fetched).
  std::string addresses = html;
  for (size_t at; (at = addresses.find("http://www.w3.org/2000/svg")) != std::string::npos;)
    addresses.erase(at, 26);
  EXPECT_EQ(addresses.find("http://"), std::string::npos) << "no network";
  EXPECT_EQ(addresses.find("https://"), std::string::npos) << "no network";
  EXPECT_EQ(html.find("<script src"), std::string::npos) << "self-contained";
}

TEST(Report, BadArgumentsAreOneMessage) {
  ScratchDir dir;
  const SimResult noFile = runColumnSum("--report", dir);
  EXPECT_EQ(noFile.exitCode, 2);
  EXPECT_NE(noFile.err.find("--report needs a value"), std::string::npos) << noFile.err;
  const SimResult badDir = runColumnSum("--quiet --report /nonexistent-dir/r.html", dir);
  EXPECT_EQ(badDir.exitCode, 2);
  EXPECT_NE(badDir.err.find("/nonexistent-dir/r.html"), std::string::npos) << badDir.err;
}

// ---- headless Chromium ------------------------------------------------------------------------

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel
  const uint8_t* at(uint32_t x, uint32_t y) const { return &rgb[(size_t(y) * width + x) * 3]; }
};

uint32_t bigEndian(const std::string& s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 |
         uint32_t(uint8_t(s[at + 2])) << 8 | uint32_t(uint8_t(s[at + 3]));
}

// A PNG reader for what Chromium writes: 8-bit RGB or RGBA, not interlaced. Returns an error
// message or "".
std::string readPng(const std::string& bytes, Image& img) {
  if (bytes.size() < 8 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return "not a PNG";
  std::string idat;
  unsigned channels = 0;
  for (size_t at = 8; at + 8 <= bytes.size();) {
    const uint32_t length = bigEndian(bytes, at);
    const std::string type = bytes.substr(at + 4, 4);
    if (at + 12 + length > bytes.size()) return "truncated chunk " + type;
    const std::string body = bytes.substr(at + 8, length);
    if (type == "IHDR") {
      img.width = bigEndian(body, 0);
      img.height = bigEndian(body, 4);
      const int depth = uint8_t(body[8]), color = uint8_t(body[9]), interlace = uint8_t(body[12]);
      if (depth != 8 || (color != 2 && color != 6) || interlace != 0)
        return "unsupported PNG format (depth " + std::to_string(depth) + ", colour type " +
               std::to_string(color) + ")";
      channels = color == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat += body;
    }
    at += 12 + length;
  }
  if (channels == 0) return "no IHDR";
  const size_t stride = size_t(img.width) * channels;
  std::vector<uint8_t> raw((stride + 1) * img.height);
  uLongf rawSize = raw.size();
  if (uncompress(raw.data(), &rawSize, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) !=
          Z_OK ||
      rawSize != raw.size())
    return "bad image data";
  std::vector<uint8_t> prev(stride, 0), line(stride);
  img.rgb.resize(size_t(img.width) * img.height * 3);
  for (uint32_t y = 0; y < img.height; ++y) {
    const uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* in = &raw[y * (stride + 1) + 1];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= channels ? line[i - channels] : 0, b = prev[i],
                c = i >= channels ? prev[i - channels] : 0;
      int p = 0;
      switch (filter) {
        case 0:
          p = 0;
          break;
        case 1:
          p = a;
          break;
        case 2:
          p = b;
          break;
        case 3:
          p = (a + b) / 2;
          break;
        case 4: {
          const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          return "bad filter " + std::to_string(filter);
      }
      line[i] = uint8_t(in[i] + p);
    }
    for (uint32_t x = 0; x < img.width; ++x)
      for (unsigned k = 0; k < 3; ++k)
        img.rgb[(size_t(y) * img.width + x) * 3 + k] = line[x * channels + k];
    prev.swap(line);
  }
  return "";
}

// The start tag of the element with this id in a DOM dump, and its attributes.
std::map<std::string, std::string> attributesOf(const std::string& dom, const std::string& id) {
  std::map<std::string, std::string> attrs;
  const size_t at = dom.find("id=\"" + id + "\"");
  if (at == std::string::npos) return attrs;
  const size_t open = dom.rfind('<', at), close = dom.find('>', at);
  const std::string tag = dom.substr(open, close - open);
  static const std::regex attr("([a-z-]+)=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(tag.begin(), tag.end(), attr); it != std::sregex_iterator();
       ++it)
    attrs[(*it)[1]] = (*it)[2];
  return attrs;
}

TEST(Report, RendersInHeadlessChromium) {
  const std::string chromium = VGPU_CHROMIUM;
  if (chromium.empty() || ::access(chromium.c_str(), X_OK) != 0)
    GTEST_SKIP() << "Debian's chromium is not installed (scripts/setup installs it): the HTML "
                    "report cannot be rendered here";
  ScratchDir dir;
  const std::string html = dir.file("report.html");
  const SimResult run =
      runColumnSum("--quiet --profile-instructions 10 --report " + shellQuote(html), dir);
  ASSERT_EQ(run.exitCode, 0) << run.err;

  const std::string browser = shellQuote(chromium) +
                              " --headless --disable-gpu --no-sandbox --hide-scrollbars"
                              " --force-device-scale-factor=1 --window-size=1000,3800"
                              " --user-data-dir=" +
                              shellQuote(dir.file("profile")) + " --enable-logging=stderr --v=0";
  const SimResult dom = runShell(browser + " --dump-dom " + shellQuote("file://" + html), dir);
  ASSERT_EQ(dom.exitCode, 0) << dom.err;
  ASSERT_NE(dom.out.find("data-report=\"ok\""), std::string::npos)
      << "the page's script did not finish: " << dom.out.substr(dom.out.find("<body"), 200) << "\n"
      << dom.err;
  // Console errors (uncaught exceptions, failed loads) are logged with the CONSOLE tag.
  EXPECT_FALSE(std::regex_search(dom.err, std::regex("CONSOLE.*(Uncaught|Error|error)")))
      << dom.err;

  const std::vector<std::string> charts = {
      "chart-occupancy", "chart-cu-heatmap",  "chart-bandwidth",    "chart-ipc",
      "chart-stalls",    "chart-stalls-time", "chart-lds-histogram"};
  std::map<std::string, std::vector<int>> boxes;
  for (const std::string& id : charts) {
    auto a = attributesOf(dom.out, id);
    ASSERT_FALSE(a.empty()) << id << " missing";
    EXPECT_GT(std::stoll(a["data-drawn"]), 0) << id << " drew no data";
    EXPECT_GT(std::stod(a["data-peak"]), 0) << id << " has only zeros";
    std::vector<int> box;
    std::stringstream s(a["data-box"]);
    for (std::string v; std::getline(s, v, ',');) box.push_back(std::stoi(v));
    ASSERT_EQ(box.size(), 4u) << id << " data-box='" << a["data-box"] << "'";
    boxes[id] = box;
  }
  // The hottest-instructions table: a header and the ten rows asked for, after the script ran.
  const size_t table = dom.out.find("<table id=\"table-instructions\"");
  ASSERT_NE(table, std::string::npos);
  const std::string rows = dom.out.substr(table, dom.out.find("</table>", table) - table);
  size_t count = 0;
  for (size_t at = rows.find("<tr>"); at != std::string::npos; at = rows.find("<tr>", at + 1))
    ++count;
  EXPECT_EQ(count, 11u) << rows;
  // The kernel's 32-way conflicts are in the histogram's last bin.
  const std::string lds = dom.out.substr(dom.out.find("id=\"chart-lds-histogram\""));
  EXPECT_NE(lds.find(">32+<"), std::string::npos);

  const std::string png = dir.file("shot.png");
  const SimResult shot = runShell(
      browser + " --screenshot=" + shellQuote(png) + " " + shellQuote("file://" + html), dir);
  ASSERT_EQ(shot.exitCode, 0) << shot.err;
  Image img;
  const std::string error = readPng(slurp(png), img);
  ASSERT_EQ(error, "");
  ASSERT_EQ(img.width, 1000u);
  for (const auto& [id, box] : boxes) {
    ASSERT_LE(uint32_t(box[1] + box[3]), img.height) << id << " is below the screenshot";
    // Data is drawn in saturated colours; axes, grid and text are grey.
    uint64_t coloured = 0;
    for (int y = box[1]; y < box[1] + box[3]; ++y)
      for (int x = box[0]; x < box[0] + box[2]; ++x) {
        const uint8_t* p = img.at(uint32_t(x), uint32_t(y));
        const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
        coloured += hi - lo >= 40;
      }
    EXPECT_GT(double(coloured) / (double(box[2]) * box[3]), 0.01)
        << id << ": " << coloured << " coloured pixels in " << box[2] << "x" << box[3];
  }
}

}  // namespace
}  // namespace vgpu
