#include "sc_main/HtmlReport.h"

#include <cstdio>

#include "activity/RunSummary.h"

namespace vgpu {

namespace {

// The page. The run's data replaces the marker inside the application/json script; the
// JavaScript below draws every chart from it into the SVG elements. Each chart records what it
// drew (data-drawn: data marks, data-peak: largest value, data-box: where it is on the page) and
// <body data-report> says "ok" once everything is drawn or names the first script error, so a
// headless browser can check the page (tests/report).
constexpr const char* kPage = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>vgpu report</title>
<style>
  body { font: 14px/1.45 system-ui, sans-serif; color: #222; background: #fff; margin: 0; }
  main { max-width: 960px; margin: 0 auto; padding: 16px 24px 48px; }
  h1 { font-size: 22px; margin: 8px 0 2px; }
  h2 { font-size: 17px; margin: 28px 0 6px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
  p.note { color: #666; margin: 2px 0 8px; font-size: 13px; }
  .cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0; }
  .card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px; min-width: 120px; }
  .card .v { font-size: 20px; font-weight: 600; }
  .card .k { color: #666; font-size: 12px; }
  .fault { border: 1px solid #c00; background: #fff4f4; padding: 8px 12px; white-space: pre-wrap;
           font-family: ui-monospace, monospace; font-size: 12px; }
  svg.chart { display: block; }
  svg text { font: 11px system-ui, sans-serif; fill: #444; }
  table { border-collapse: collapse; margin: 6px 0; }
  th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 10px; text-align: right; }
  th:first-child, td:first-child { text-align: left; }
  th { background: #f6f6f6; font-weight: 600; }
  .wide { overflow-x: auto; }
  table.profile { font-size: 12px; }
  table.profile td { white-space: nowrap; }
  table.profile th { white-space: nowrap; }
  td.code { font-family: ui-monospace, monospace; text-align: left; }
  td.text, th.text { text-align: left; }
</style>
</head>
<body data-report="loading">
<main>
<h1 id="title">vgpu report</h1>
<p class="note" id="subtitle"></p>
<div id="fault"></div>
<div class="cards" id="cards"></div>

<h2>Occupancy over time</h2>
<p class="note">Waves resident, as a share of every wave slot of the GPU. Dashed lines mark
kernel starts and ends.</p>
<svg class="chart" id="chart-occupancy"></svg>
<p class="note">Per compute unit: darker is more waves resident.</p>
<svg class="chart" id="chart-cu-heatmap"></svg>

<h2>Bandwidth over time</h2>
<p class="note">Bytes moved per level, in GB/s at the platform clock. DRAM is what the L2 moved
to and from memory for the kernels.</p>
<svg class="chart" id="chart-bandwidth"></svg>

<h2>Issue rate over time</h2>
<p class="note">Wave-instructions issued per cycle, whole GPU.</p>
<svg class="chart" id="chart-ipc"></svg>

<h2>Stalls</h2>
<p class="note">Wave-cycles spent waiting, by reason (a wave waiting 10 cycles adds 10).</p>
<svg class="chart" id="chart-stalls"></svg>
<p class="note">Waves stalled over time, by reason.</p>
<svg class="chart" id="chart-stalls-time"></svg>

<h2>LDS bank conflicts</h2>
<p class="note" id="lds-note"></p>
<svg class="chart" id="chart-lds-histogram"></svg>

<h2>Kernels</h2>
<table id="table-kernels"></table>
<!--VGPU_INSTRUCTIONS-->

<h2>Caches and traffic</h2>
<table id="table-caches"></table>
<table id="table-traffic"></table>
<p class="note" id="footer"></p>
</main>
<script type="application/json" id="vgpu-data">/*VGPU_DATA*/</script>
<script>
window.addEventListener('error', function (e) {
  if (document.body.dataset.report.indexOf('error') !== 0)
    document.body.dataset.report = 'error: ' + e.message;
});
(function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const data = JSON.parse(document.getElementById('vgpu-data').textContent);
  const run = data.run, summary = data.summary, act = data.activity;
  const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#17becf', '#e377c2',
                  '#8c564b', '#bcbd22'];
  const CW = 900;  // chart width in px

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function label(parent, x, y, text, anchor) {
    const t = el('text', {x: x, y: y, 'text-anchor': anchor || 'start'}, parent);
    t.textContent = text;
    return t;
  }
  function node(tag, text, parent) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function num(v, digits) {
    if (!isFinite(v)) return '-';
    return v.toLocaleString('en-US', {maximumFractionDigits: digits || 0,
                                      minimumFractionDigits: digits || 0});
  }
  function short(v) {  // axis labels: 1.2k, 3.4M
    const a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toFixed(a >= 1e10 ? 0 : 1) + 'G';
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
    if (a >= 1e4) return (v / 1e3).toFixed(a >= 1e5 ? 0 : 1) + 'k';
    return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(a < 1 ? 3 : 2)));
  }
  function niceMax(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 1.2, 1.6, 2, 2.4, 3.2, 4, 6, 8, 10]) if (m * p >= v * 1.0001) return m * p;
    return 10 * p;
  }
  function record(svg, marks, peak) {
    svg.dataset.drawn = String(marks);
    svg.dataset.peak = String(peak);
  }

  // ---- time series -------------------------------------------------------------------------
  const N = act ? act.buckets : 0;
  const W = act ? act.bucket_cycles : 1;
  const origin = act ? act.origin_cycle : 0;
  const end = act ? Math.max(act.end_cycle, origin + 1) : 1;
  function widthOf(b) { return Math.max(1, Math.min(W, end - (origin + b * W))); }
  function channel(name) {
    const v = act && act.channels[name];
    return v ? v : new Array(N).fill(0);
  }
  function perCycle(values) { return values.map(function (v, b) { return v / widthOf(b); }); }
  function add(a, b) { return a.map(function (v, i) { return v + b[i]; }); }
  const GBs = run.clock_mhz / 1000;  // bytes per cycle -> GB/s

  function frame(svg, height) {
    svg.setAttribute('width', CW);
    svg.setAttribute('height', height);
    svg.setAttribute('viewBox', '0 0 ' + CW + ' ' + height);
    el('rect', {x: 0, y: 0, width: CW, height: height, fill: '#ffffff'}, svg);
  }
  function noData(svg, text) {
    frame(svg, 60);
    label(svg, 10, 34, text);
    record(svg, 0, 0);
  }

  // A line chart of per-bucket values over GPU cycles, optionally with the area below filled.
  function timeChart(id, series, opts) {
    const svg = document.getElementById(id);
    if (N === 0) return noData(svg, 'No samples: nothing ran on the GPU.');
    const H = 270, L = 60, R = 14, T = 12, B = 52;
    frame(svg, H);
    let peak = 0;
    series.forEach(function (s) { s.values.forEach(function (v) { peak = Math.max(peak, v); }); });
    const yMax = opts.yMax || niceMax(peak);
    const x = function (c) { return L + (c - origin) / (end - origin) * (CW - L - R); };
    const y = function (v) { return T + (1 - Math.min(v, yMax) / yMax) * (H - T - B); };
    for (let i = 0; i <= 4; ++i) {
      const v = yMax * i / 4;
      el('line', {x1: L, x2: CW - R, y1: y(v), y2: y(v), stroke: '#e6e6e6'}, svg);
      label(svg, L - 6, y(v) + 4, short(v) + (opts.unit || ''), 'end');
    }
    for (let i = 0; i <= 5; ++i) {
      const c = origin + (end - origin) * i / 5;
      el('line', {x1: x(c), x2: x(c), y1: H - B, y2: H - B + 4, stroke: '#888'}, svg);
      label(svg, x(c), H - B + 16, short(Math.round(c)), i === 0 ? 'start' : i === 5 ? 'end' : 'middle');
    }
    label(svg, CW - R, H - 6, 'GPU cycle', 'end');
    el('line', {x1: L, x2: CW - R, y1: H - B, y2: H - B, stroke: '#888'}, svg);
    (data.dispatches || []).forEach(function (d) {
      [d.start_cycle, d.end_cycle].forEach(function (c) {
        if (c < origin || c > end) return;
        el('line', {x1: x(c), x2: x(c), y1: T, y2: H - B, stroke: '#999',
                    'stroke-dasharray': '4 3'}, svg);
      });
    });
    let marks = 0;
    series.forEach(function (s) {
      let d = '';
      s.values.forEach(function (v, b) {
        const x0 = x(origin + b * W), x1 = x(origin + b * W + widthOf(b));
        d += (b ? 'L' : 'M') + x0.toFixed(1) + ',' + y(v).toFixed(1) + 'L' + x1.toFixed(1) + ',' +
             y(v).toFixed(1);
        if (v > 0) ++marks;
      });
      if (opts.fill) {
        el('path', {d: d + 'L' + x(end).toFixed(1) + ',' + y(0) + 'L' + x(origin).toFixed(1) + ',' +
                       y(0) + 'Z', fill: s.color, 'fill-opacity': series.length > 1 ? 0.15 : 0.35,
                    stroke: 'none'}, svg);
      }
      el('path', {d: d, fill: 'none', stroke: s.color, 'stroke-width': 1.6,
                  'data-series': s.name}, svg);
    });
    let lx = L;
    series.forEach(function (s) {
      el('rect', {x: lx, y: H - 15, width: 12, height: 10, fill: s.color}, svg);
      const t = label(svg, lx + 16, H - 6, s.name);
      lx += 24 + Math.max(40, t.getComputedTextLength ? t.getComputedTextLength() : 60);
    });
    record(svg, marks, peak);
  }

  // Per-CU occupancy: one row per compute unit, at most 200 columns.
  function heatmap(id) {
    const svg = document.getElementById(id);
    const cus = run.compute_units || 0, slots = summary.wave_slots_per_cu || 1;
    if (N === 0 || cus === 0) return noData(svg, 'No samples.');
    const cols = Math.min(N, 200), per = Math.ceil(N / cols);
    const rowH = Math.max(3, Math.min(14, Math.floor(240 / cus)));
    const L = 60, R = 14, T = 6, H = T + rowH * cus + 24;
    frame(svg, H);
    const cw = (CW - L - R) / Math.ceil(N / per);
    let marks = 0, peak = 0;
    for (let c = 0; c < cus; ++c) {
      const v = channel('cu' + c + '.active_waves');
      for (let k = 0; k * per < N; ++k) {
        let waveCycles = 0, cycles = 0;
        for (let b = k * per; b < Math.min(N, (k + 1) * per); ++b) {
          waveCycles += v[b];
          cycles += widthOf(b);
        }
        const share = Math.min(1, waveCycles / cycles / slots);
        peak = Math.max(peak, share);
        if (share <= 0) continue;
        el('rect', {x: (L + k * cw).toFixed(1), y: T + c * rowH, width: (cw + 0.5).toFixed(1),
                    height: rowH, fill: '#1f5fb4', 'fill-opacity': (0.15 + 0.85 * share).toFixed(3)},
           svg);
        ++marks;
      }
      if (cus <= 16 || c % Math.ceil(cus / 16) === 0) label(svg, L - 6, T + c * rowH + rowH - 1, 'CU ' + c, 'end');
    }
    label(svg, L, H - 6, 'GPU cycles ' + short(origin) + ' .. ' + short(end));
    record(svg, marks, peak);
  }

  // Horizontal bars: [{name, value, color}], with the value's share of the total.
  function hbars(id, bars, unit) {
    const svg = document.getElementById(id);
    const total = bars.reduce(function (a, b) { return a + b.value; }, 0);
    if (bars.length === 0 || total === 0) return noData(svg, 'None.');
    const rowH = 24, L = 170, R = 190, T = 6, H = T + rowH * bars.length + 6;
    frame(svg, H);
    const max = Math.max.apply(null, bars.map(function (b) { return b.value; }));
    let marks = 0;
    bars.forEach(function (b, i) {
      const w = (CW - L - R) * b.value / max;
      label(svg, L - 8, T + i * rowH + 16, b.name, 'end');
      if (b.value > 0) {
        el('rect', {x: L, y: T + i * rowH + 4, width: Math.max(1, w).toFixed(1), height: rowH - 8,
                    fill: b.color}, svg);
        ++marks;
      }
      label(svg, L + w + 6, T + i * rowH + 16,
            num(b.value) + ' ' + unit + ' (' + num(100 * b.value / total, 1) + '%)');
    });
    record(svg, marks, max);
  }

  // Vertical bars: the LDS conflict-degree histogram.
  function vbars(id, bars) {
    const svg = document.getElementById(id);
    const total = bars.reduce(function (a, b) { return a + b.value; }, 0);
    if (bars.length === 0 || total === 0) return noData(svg, 'No LDS instructions were timed.');
    const H = 260, L = 60, R = 14, T = 18, B = 44;
    frame(svg, H);
    const max = Math.max.apply(null, bars.map(function (b) { return b.value; }));
    const yMax = niceMax(max);
    const bw = (CW - L - R) / bars.length;
    for (let i = 0; i <= 4; ++i) {
      const v = yMax * i / 4, yy = T + (1 - v / yMax) * (H - T - B);
      el('line', {x1: L, x2: CW - R, y1: yy, y2: yy, stroke: '#e6e6e6'}, svg);
      label(svg, L - 6, yy + 4, short(v), 'end');
    }
    let marks = 0;
    bars.forEach(function (b, i) {
      const h = (H - T - B) * b.value / yMax;
      if (b.value > 0) {
        el('rect', {x: (L + i * bw + bw * 0.15).toFixed(1), y: (H - B - h).toFixed(1),
                    width: (bw * 0.7).toFixed(1), height: Math.max(1, h).toFixed(1),
                    fill: b.color}, svg);
        ++marks;
      }
      label(svg, L + i * bw + bw / 2, H - B - h - 4, num(b.value), 'middle');
      label(svg, L + i * bw + bw / 2, H - B + 16, b.name, 'middle');
    });
    label(svg, L, H - 6, 'conflict degree (bank cycles / conflict-free bank cycles); bars: LDS instructions');
    record(svg, marks, max);
  }

  function table(id, head, rows) {
    const t = document.getElementById(id);
    const tr = node('tr', undefined, t);
    head.forEach(function (h) { node('th', h, tr); });
    rows.forEach(function (r) {
      const row = node('tr', undefined, t);
      r.forEach(function (c) { node('td', c, row); });
    });
  }

  // ---- the page ------------------------------------------------------------------------------
  document.getElementById('title').textContent =
      'vgpu report: ' + run.kernel + ' on ' + run.platform;
  document.getElementById('subtitle').textContent =
      run.code_object + ' | ' + run.compute_units + ' compute unit' +
      (run.compute_units === 1 ? '' : 's') + ' at ' + num(run.clock_mhz) + ' MHz';
  if (run.faulted) {
    const f = node('div', 'The kernel faulted:\n' + run.fault, document.getElementById('fault'));
    f.className = 'fault';
  }
  const slotsTotal = (summary.wave_slots_per_cu || 1) * (run.compute_units || 1);
  const cards = [
    [num(run.cycles), 'cycles'],
    [num(run.simulated_seconds * 1e6, 3) + ' us', 'at ' + num(run.clock_mhz) + ' MHz'],
    run.mode === 'functional' ? ['n/a', 'IPC (functional mode: unit latencies)']
                              : [num(summary.ipc, 2), 'IPC (wave-instructions / cycle)'],
    [num(100 * summary.average_waves_per_cu / (summary.wave_slots_per_cu || 1), 1) + ' %',
     'average occupancy'],
    [num(run.wave_instructions), 'wave-instructions'],
    [num(run.workgroups) + ' / ' + num(run.waves), 'workgroups / waves'],
    [num(run.host_seconds, 2) + ' s', 'host time']];
  cards.forEach(function (c) {
    const d = node('div', undefined, document.getElementById('cards'));
    d.className = 'card';
    node('div', c[0], d).className = 'v';
    node('div', c[1], d).className = 'k';
  });

  let waves = new Array(N).fill(0);
  for (let c = 0; c < (run.compute_units || 0); ++c) waves = add(waves, channel('cu' + c + '.active_waves'));
  timeChart('chart-occupancy',
            [{name: 'occupancy', color: COLORS[0],
              values: perCycle(waves).map(function (v) { return 100 * v / slotsTotal; })}],
            {fill: true, yMax: 100, unit: '%'});
  heatmap('chart-cu-heatmap');
  timeChart('chart-bandwidth',
            [['DRAM', 'dram.bytes'], ['L2', 'l2.bytes'], ['vector L1', 'vector_l1.bytes'],
             ['LDS', 'lds.bytes']].map(function (l, i) {
              return {name: l[0] + ' GB/s', color: COLORS[(i + 1) % COLORS.length],
                      values: perCycle(channel(l[1])).map(function (v) { return v * GBs; })};
            }),
            {fill: true});
  timeChart('chart-ipc', [{name: 'wave-instructions per cycle', color: COLORS[2],
                           values: perCycle(channel('wave_instructions'))}], {fill: true});

  const stalls = (summary.stalls || []).map(function (s, i) {
    return {name: s.reason, value: s.wave_cycles, color: COLORS[i % COLORS.length]};
  });
  hbars('chart-stalls', stalls, 'wave-cycles');
  timeChart('chart-stalls-time', stalls.map(function (s) {
    return {name: s.name, color: s.color, values: perCycle(channel('stall.' + s.name))};
  }).filter(function (s) { return act && act.channels['stall.' + s.name]; }), {});

  const lds = summary.lds || {};
  document.getElementById('lds-note').textContent =
      num(lds.conflict_cycles || 0) + ' bank-conflict cycles of ' + num(lds.bank_cycles || 0) +
      ' bank cycles in ' + num(lds.instructions || 0) + ' LDS instructions. ' +
      'Degree 1 is conflict-free; 32 puts every lane of a half-wave in one bank.';
  vbars('chart-lds-histogram', (lds.conflict_degrees || []).map(function (b, i) {
    return {name: b.degree, value: b.instructions, color: i === 0 ? COLORS[2] : COLORS[1]};
  }));

  table('table-kernels',
        ['kernel', 'start cycle', 'end cycle', 'cycles', 'time (us)', 'workgroups', 'waves',
         'faulted'],
        (data.dispatches || []).map(function (d) {
          return [d.kernel, num(d.start_cycle), num(d.end_cycle), num(d.end_cycle - d.start_cycle),
                  num((d.end_cycle - d.start_cycle) / run.clock_mhz, 3), num(d.workgroups),
                  num(d.waves), d.faulted ? 'yes' : 'no'];
        }));
  table('table-caches', ['cache', 'hits', 'misses', 'hit rate'],
        (summary.caches || []).map(function (c) {
          const n = c.hits + c.misses;
          return [c.name, num(c.hits), num(c.misses), n ? num(100 * c.hits / n, 1) + ' %' : '-'];
        }));
  table('table-traffic', ['level', 'bytes', 'bytes per cycle', 'GB/s'],
        (summary.traffic || []).map(function (t) {
          return [t.level, num(t.bytes), num(t.bytes_per_cycle, 2), num(t.gigabytes_per_second, 1)];
        }));
  document.getElementById('footer').textContent =
      'Generated by vgpu-sim. Time series: ' + num(N) + ' buckets of ' + num(W) +
      ' cycles from GPU cycle ' + num(origin) + '.';

  document.querySelectorAll('svg.chart').forEach(function (svg) {
    const r = svg.getBoundingClientRect();
    svg.dataset.box = [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]
                          .map(Math.round).join(',');
  });
  if (document.body.dataset.report === 'loading') document.body.dataset.report = 'ok';
})();
</script>
</body>
</html>
)HTML";

std::string escapeHtml(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c == '<')
      s += "&lt;";
    else if (c == '>')
      s += "&gt;";
    else if (c == '&')
      s += "&amp;";
    else if (c == '"')
      s += "&quot;";
    else
      s += c;
  }
  return s;
}

std::string hexOffset(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// --profile-instructions: the hottest instructions as a plain table, written here rather than
// by the page's script so that it reads the same without JavaScript.
std::string instructionTable(const nlohmann::json& profile) {
  std::string html =
      "<h2>Hottest instructions</h2>\n<p class=\"note\">The " +
      std::to_string(profile["rows"].get<uint64_t>()) + " of " +
      std::to_string(profile["addresses"].get<uint64_t>()) +
      " instruction addresses waves issued from most often, by code-object offset (as vgpu-sim "
      "disasm and llvm-objdump print it); stalls in wave-cycles spent at the instruction, by "
      "reason.</p>\n<div class=\"wide\"><table id=\"table-instructions\" class=\"profile\">\n"
      "<tr><th>offset</th><th class=\"text\">kernel</th><th class=\"text\">instruction</th>"
      "<th>issued</th><th>% of issued</th>";
  for (const auto& r : profile["stall_reasons"])
    html += "<th>" + escapeHtml(r.get<std::string>()) + "</th>";
  html += "</tr>\n";
  const double total = profile["wave_instructions"].get<double>();
  for (const auto& e : profile["list"]) {
    const uint64_t issued = e["issued"];
    char share[32];
    std::snprintf(share, sizeof share, "%.1f %%", total > 0 ? 100.0 * double(issued) / total : 0);
    html += "<tr><td>" + hexOffset(e["offset"]) + "</td><td class=\"text\">" +
            escapeHtml(e["kernel"].get<std::string>()) + "</td><td class=\"code\">" +
            escapeHtml(e["instruction"].get<std::string>()) + "</td><td>" + std::to_string(issued) +
            "</td><td>" + share + "</td>";
    for (const auto& r : profile["stall_reasons"])
      html += "<td>" + std::to_string(e["stall_cycles"][r.get<std::string>()].get<uint64_t>()) +
              "</td>";
    html += "</tr>\n";
  }
  return html + "</table></div>\n";
}

}  // namespace

std::string renderHtmlReport(const nlohmann::json& stats) {
  nlohmann::json data;
  nlohmann::json run = stats;
  run.erase("counters");
  run.erase("activity");
  run.erase("dispatches");
  run.erase("instruction_profile");  // a table of its own, written into the page
  data["run"] = run;
  data["summary"] = runSummaryJson(summarizeRun(stats));
  data["dispatches"] = stats.value("dispatches", nlohmann::json::array());
  data["activity"] = stats.value("activity", nlohmann::json());
  // Inside <script>, "</" could end the element early: JSON allows "<\/" for it.
  std::string json = data.dump();
  for (size_t at = json.find("</"); at != std::string::npos; at = json.find("</", at + 3))
    json.replace(at, 2, "<\\/");
  std::string page = kPage;
  const std::string marker = "/*VGPU_DATA*/";
  page.replace(page.find(marker), marker.size(), json);
  const std::string instructions = "<!--VGPU_INSTRUCTIONS-->";
  page.replace(page.find(instructions), instructions.size(),
               stats.contains("instruction_profile")
                   ? instructionTable(stats["instruction_profile"])
                   : std::string());
  return page;
}

}  // namespace vgpu
