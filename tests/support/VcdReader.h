// A small reader of the VCD files the model writes (--vcd) and Verilator writes (--rtl-vcd):
// signal names as GTKWave shows them, timestamps and every value change, for tests that check
// what a waveform shows.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace vgpu::test {

struct Vcd {
  std::string timescale;
  std::map<std::string, std::string> idOf;  // full dotted name (with [msb:0]) -> identifier
  std::vector<uint64_t> times;
  // Per identifier: (time, value bits as written, e.g. "1" or "0101" or "x") in file order, the
  // $dumpvars values included.
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> changes;
  bool monotonic = true;  // every timestamp larger than the one before

  // The value as a number; values with x or z bits read as nothing (not a number).
  static bool number(const std::string& bits, uint64_t& out) {
    out = 0;
    for (char c : bits) {
      if (c != '0' && c != '1') return false;
      out = out << 1 | uint64_t(c - '0');
    }
    return true;
  }
  // Time the signal spent at a non-zero value, up to the file's last timestamp.
  uint64_t highTime(const std::string& name) const {
    const auto& c = changes.at(idOf.at(name));
    uint64_t total = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      const uint64_t until = i + 1 < c.size() ? c[i + 1].first : times.back();
      uint64_t v = 0;
      if (number(c[i].second, v) && v != 0) total += until - c[i].first;
    }
    return total;
  }
  // The numeric values the signal took.
  std::set<uint64_t> values(const std::string& name) const {
    std::set<uint64_t> out;
    for (const auto& [t, bits] : changes.at(idOf.at(name))) {
      uint64_t v = 0;
      if (number(bits, v)) out.insert(v);
    }
    return out;
  }
  std::vector<std::string> namesStartingWith(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const auto& [name, id] : idOf)
      if (name.compare(0, prefix.size(), prefix) == 0) out.push_back(name);
    return out;
  }
};

inline Vcd readVcd(const std::string& path) {
  Vcd v;
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> scopes;
  bool header = true;
  uint64_t now = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word.empty()) continue;
    if (header) {
      if (word == "$timescale") {
        // "$timescale 1ps $end" on one line, or the value on the next line (Verilator).
        std::string t;
        ls >> t;
        if (t.empty() || t == "$end") {
          std::getline(in, t);
          std::istringstream(t) >> t;
        }
        v.timescale = t;
      } else if (word == "$scope") {
        std::string kind, name;
        ls >> kind >> name;
        scopes.push_back(name);
      } else if (word == "$upscope") {
        if (!scopes.empty()) scopes.pop_back();
      } else if (word == "$var") {
        std::string kind, id, name, range;
        int width = 0;
        ls >> kind >> width >> id >> name >> range;
        std::string full;
        for (const auto& s : scopes) full += s + ".";
        full += name;
        if (range != "$end") full += range;
        v.idOf[full] = id;
      } else if (word == "$enddefinitions") {
        header = false;
      }
      continue;
    }
    if (word[0] == '#') {
      const uint64_t t = std::stoull(word.substr(1));
      if (!v.times.empty() && t <= v.times.back()) v.monotonic = false;
      v.times.push_back(t);
      now = t;
    } else if (word[0] == 'b' || word[0] == 'B') {
      std::string id;
      ls >> id;
      v.changes[id].push_back({now, word.substr(1)});
    } else if (std::string("01xXzZ").find(word[0]) != std::string::npos) {
      v.changes[word.substr(1)].push_back({now, word.substr(0, 1)});
    }
  }
  return v;
}

}  // namespace vgpu::test
