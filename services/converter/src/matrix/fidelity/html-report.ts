import type { MatrixReport } from '../matrix-report';
import type { FamilyMatrixReport, PairResult } from '../matrix-runner';

/**
 * The matrix as one self-contained HTML page: per family its figures, then a
 * grid of input (rows) by output (columns) formats, each cell coloured by its
 * outcome with the checks (or the reason it failed) on hover.
 */
export function renderHtml(report: MatrixReport): string {
  const totals = report.totals;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Transmute conversion matrix</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1f; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #d6d6de; padding: 2px 6px; text-align: right; }
th { background: #f3f3f7; }
.grid td, .grid th { padding: 0; width: 1.3rem; height: 1.3rem; text-align: center; font-size: 11px; }
.grid th.row { text-align: left; padding: 0 4px; width: auto; }
.grid thead th { writing-mode: vertical-rl; transform: rotate(180deg); padding: 4px 0; }
.pass { background: #2e9e5b; color: #fff; }
.note { background: #e0b030; color: #1b1b1f; }
.fail { background: #d23a3a; color: #fff; }
.withdrawn { background: #9a9aa6; color: #fff; }
.legend span { display: inline-block; padding: 0 6px; margin-right: 6px; }
td.text, th.text { text-align: left; }
</style>
</head>
<body>
<h1>Transmute conversion matrix${report.fidelity ? ': fidelity' : ''}</h1>
<p>Generated ${escape(report.generatedAt)}. ${report.fidelity ? 'Every output was compared with its source by independent readers (content, not only format).' : 'Every output was checked by its signature and a probe.'}
Totals: ${totals.run} pairs run, ${totals.passed} passed (${totals.noted} with a declared loss), ${totals.failed} failed, ${totals.withdrawn} withdrawn, ${totals.narrowed} options narrowed; ${totals.optionChecks} option checks, ${totals.optionChecksFailed} failed.</p>
<p class="legend"><span class="pass">✓ content kept</span><span class="note">! kept, with a declared loss</span><span class="fail">✗ failed</span><span class="withdrawn">– withdrawn</span> Hover a cell for the checks.</p>
${figuresTable(report)}
${report.families.map(familySection).join('\n')}
</body>
</html>
`;
}

function figuresTable(report: MatrixReport): string {
  const rows = report.figures
    .map(
      (entry) =>
        `<tr><th class="text">${escape(entry.family)}</th><td>${entry.listed}</td><td>${entry.run}</td><td>${entry.passed}</td><td>${entry.noted}</td><td>${entry.failed}</td><td>${entry.withdrawn}</td><td>${entry.narrowed}</td><td>${entry.optionChecks}</td><td>${entry.optionChecksFailed}</td><td>${entry.seconds}</td></tr>`,
    )
    .join('\n');
  return `<table>
<thead><tr><th class="text">family</th><th>listed</th><th>run</th><th>passed</th><th>with a declared loss</th><th>failed</th><th>withdrawn</th><th>options narrowed</th><th>option checks</th><th>option checks failed</th><th>seconds</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

function familySection(family: FamilyMatrixReport): string {
  const results = new Map(family.results.map((result) => [`${result.inputFormat}->${result.outputFormat}`, result]));
  const withdrawn = new Map((family.withdrawn ?? []).map((pair) => [`${pair.inputFormat}->${pair.outputFormat}`, pair.reason]));
  const inputs = [...new Set([...family.results.map((result) => result.inputFormat), ...(family.withdrawn ?? []).map((pair) => pair.inputFormat)])].sort();
  const outputs = [...new Set([...family.results.map((result) => result.outputFormat), ...(family.withdrawn ?? []).map((pair) => pair.outputFormat)])].sort();
  const head = `<tr><th class="row">${escape(family.family)}</th>${outputs.map((output) => `<th>${escape(output)}</th>`).join('')}</tr>`;
  const body = inputs
    .map((input) => {
      const cells = outputs.map((output) => {
        const key = `${input}->${output}`;
        const reason = withdrawn.get(key);
        if (reason !== undefined) return `<td class="withdrawn" title="${escape(`${input} → ${output}: withdrawn: ${reason}`)}">–</td>`;
        const result = results.get(key);
        if (!result) return '<td></td>';
        return cellOf(result);
      });
      return `<tr><th class="row">${escape(input)}</th>${cells.join('')}</tr>`;
    })
    .join('\n');
  const options = family.options ?? [];
  const optionRows = options
    .map(
      (check) =>
        `<tr><td class="text">${escape(check.option)}</td><td class="text">${escape(`${check.inputFormat} → ${check.outputFormat}`)}</td><td class="text">${escape(check.promise)}</td><td class="${check.passed ? 'pass' : 'fail'}" title="${escape(check.error ?? check.findings.map((finding) => `${finding.check}: ${finding.detail}`).join('\n'))}">${check.passed ? '✓' : '✗'}</td></tr>`,
    )
    .join('\n');
  const narrowed = (family.narrowed ?? []).map((entry) => `<li><b>${escape(entry.option)}</b> (${escape(entry.where)}): ${escape(entry.reason)}</li>`).join('');
  return `<h2>${escape(family.family)} <small>${escape(family.engineVersion)}</small></h2>
<p>${family.run} pairs run (${family.mode}) of ${family.listed} listed: ${family.passed} passed, ${family.failures.length} failed, ${(family.durationMs / 1000).toFixed(0)} s.</p>
<table class="grid"><thead>${head}</thead><tbody>
${body}
</tbody></table>
${options.length > 0 ? `<h3>Option checks</h3><table><thead><tr><th class="text">option</th><th class="text">pair</th><th class="text">promise</th><th>result</th></tr></thead><tbody>\n${optionRows}\n</tbody></table>` : ''}
${narrowed ? `<h3>Options narrowed</h3><ul>${narrowed}</ul>` : ''}`;
}

function cellOf(result: PairResult): string {
  const pair = `${result.inputFormat} → ${result.outputFormat}`;
  if (!result.passed) return `<td class="fail" title="${escape(`${pair}: failed at ${result.stage}: ${result.error ?? ''}`)}">✗</td>`;
  const checks = (result.checks ?? []).map((check) => `${check.check}: ${check.detail}`).join('\n');
  const note = result.note ? `\ndeclared loss: ${result.note}` : '';
  return `<td class="${result.note ? 'note' : 'pass'}" title="${escape(`${pair}\n${checks}${note}`)}">${result.note ? '!' : '✓'}</td>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}
