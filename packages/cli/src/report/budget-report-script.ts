/**
 * The browser script of the budget report, as source text: it reads the data from
 * `#report-data` and draws Chart.js charts: the budget sweep (cost or uncached input
 * per retention against the budget, with the share of calls keeping the current
 * episode whole on a second axis and the recommended run marked), replayed against
 * reported input per recorded call, and per-call charts of one run (tokens by
 * section, cache reuse, cumulative cost) picked with a select. Animation is off so
 * the page is complete as soon as it loads.
 */

/** Plain ES2019 for any current browser; `Chart` is the global the UMD build defines. */
export const budgetReportScript = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var palette = ['#3566a8', '#d9822b', '#3b7d3b', '#a83a5a', '#6c4fa8', '#2b9aa0', '#8a6d1f', '#5a6475'];
  var sectionColors = { system: '#5a6475', tools: '#8a6d1f', summary: '#6c4fa8', history: '#3566a8', currentEpisode: '#d9822b' };
  var sectionNames = { system: 'system', tools: 'tools', summary: 'summary', history: 'past episodes', currentEpisode: 'current episode' };
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;

  function runLabel(run) { return run.budgetLabel + ' tokens, retention ' + run.retention; }
  function callLabels(run) { return run.calls.total.map(function (_, index) { return String(index + 1); }); }

  var select = document.getElementById('run-select');
  data.runs.forEach(function (run, index) {
    var option = document.createElement('option');
    option.value = String(index);
    option.textContent = runLabel(run);
    select.appendChild(option);
  });
  select.value = String(data.initialRun);

  var sectionsChart = new Chart(document.getElementById('chart-sections'), {
    type: 'bar',
    data: { labels: [], datasets: [] },
    options: {
      scales: { x: { stacked: true, title: { display: true, text: 'call' } }, y: { stacked: true, title: { display: true, text: 'input tokens' } } },
      plugins: { title: { display: true, text: 'Tokens per call by section' } },
    },
  });
  var cacheChart = new Chart(document.getElementById('chart-cache'), {
    type: 'line',
    data: { labels: [], datasets: [] },
    options: {
      elements: { point: { radius: 0 } },
      interaction: { mode: 'index', intersect: false },
      scales: { x: { title: { display: true, text: 'call' } }, y: { title: { display: true, text: 'tokens' } } },
      plugins: { title: { display: true, text: 'Cache reuse per call' } },
    },
  });

  function showRun(index) {
    var run = data.runs[index];
    sectionsChart.data.labels = callLabels(run);
    sectionsChart.data.datasets = Object.keys(sectionNames).map(function (key) {
      return { label: sectionNames[key], data: run.calls[key], backgroundColor: sectionColors[key], borderWidth: 0 };
    });
    sectionsChart.update();
    var datasets = [
      { label: 'input tokens', data: run.calls.total, borderColor: '#5a6475', borderWidth: 1 },
      { label: 'byte-identical prefix', data: run.calls.reused, borderColor: '#3566a8', borderWidth: 1 },
      { label: 'predicted cached', data: run.calls.cached, borderColor: '#3b7d3b', backgroundColor: 'rgba(59,125,59,0.15)', fill: true, borderWidth: 2 },
    ];
    if (data.reported) {
      datasets.push({ label: 'reported cached', data: run.calls.line.map(function (line) {
        var value = data.reported[String(line)];
        return value === undefined ? null : value;
      }), borderColor: '#a83a5a', borderWidth: 2, spanGaps: true });
    }
    cacheChart.data.labels = callLabels(run);
    cacheChart.data.datasets = datasets;
    cacheChart.update();
  }

  function cumulative(values) {
    var sum = 0;
    return values.map(function (value) { sum += value; return sum; });
  }
  var longest = data.runs.reduce(function (most, run) { return Math.max(most, run.calls.total.length); }, 0);
  new Chart(document.getElementById('chart-cost'), {
    type: 'line',
    data: {
      labels: Array.from({ length: longest }, function (_, index) { return String(index + 1); }),
      datasets: data.runs.map(function (run, index) {
        return { label: runLabel(run), data: cumulative(run.calls.cost), borderColor: palette[index % palette.length], borderWidth: 2 };
      }),
    },
    options: {
      elements: { point: { radius: 0 } },
      scales: { x: { title: { display: true, text: 'call' } }, y: { title: { display: true, text: 'USD' } } },
      plugins: { title: { display: true, text: 'Cumulative cost per budget' } },
    },
  });

  var sweep = data.sweep;
  var sweepSets = [];
  sweep.series.forEach(function (series, index) {
    var colour = palette[index % palette.length];
    var points = function (values) { return series.budgets.map(function (budget, at) { return { x: budget, y: values[at] }; }); };
    sweepSets.push({ label: series.retention + (sweep.measure === 'cost' ? ': cost' : ': uncached input'), data: points(sweep.measure === 'cost' ? series.cost : series.uncached), borderColor: colour, backgroundColor: colour, borderWidth: 2, yAxisID: 'y' });
    sweepSets.push({ label: series.retention + ': whole share', data: points(series.whole.map(function (share) { return share * 100; })), borderColor: colour, borderDash: [6, 4], borderWidth: 1, pointRadius: 2, yAxisID: 'quality' });
  });
  if (sweep.recommended) {
    var chosen = sweep.series.filter(function (series) { return series.retention === sweep.recommended.retention; })[0];
    var at = chosen.budgets.indexOf(sweep.recommended.budget);
    var value = sweep.measure === 'cost' ? chosen.cost[at] : chosen.uncached[at];
    sweepSets.push({ label: 'recommended', data: [{ x: sweep.recommended.budget, y: value }], borderColor: '#3b7d3b', backgroundColor: '#3b7d3b', pointRadius: 8, pointStyle: 'rectRot', showLine: false, yAxisID: 'y' });
  }
  new Chart(document.getElementById('chart-sweep'), {
    type: 'line',
    data: { datasets: sweepSets },
    options: {
      parsing: true,
      scales: {
        x: { type: 'logarithmic', title: { display: true, text: 'budget (tokens)' } },
        y: { title: { display: true, text: sweep.measure === 'cost' ? 'input cost (USD)' : 'input tokens not read from the cache' } },
        quality: { position: 'right', min: 0, max: 100, grid: { drawOnChartArea: false }, title: { display: true, text: 'calls with the current episode whole (%)' } },
      },
      plugins: { title: { display: true, text: 'Cost against quality per budget' } },
    },
  });

  if (data.fidelity) {
    new Chart(document.getElementById('chart-fidelity'), {
      type: 'line',
      data: {
        labels: data.fidelity.line.map(function (line) { return String(line); }),
        datasets: [
          { label: 'reported input', data: data.fidelity.reported, borderColor: '#a83a5a', borderWidth: 2 },
          { label: 'replayed input (prefix inferred)', data: data.fidelity.replayed, borderColor: '#3566a8', borderWidth: 2, borderDash: [4, 3] },
        ],
      },
      options: {
        elements: { point: { radius: 0 } },
        interaction: { mode: 'index', intersect: false },
        scales: { x: { title: { display: true, text: 'transcript line of the call' } }, y: { title: { display: true, text: 'input tokens' } } },
        plugins: { title: { display: true, text: 'Replayed against reported input, per recorded call' } },
      },
    });
  }

  select.addEventListener('change', function () { showRun(Number(select.value)); });
  showRun(data.initialRun);
  document.body.setAttribute('data-ready', 'true');
})();
`;
