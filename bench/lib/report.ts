import type { MachineFacts } from './machine.js';

export type Verdict = 'PASS' | 'MISS' | 'info' | 'SKIP' | 'ERROR';
export type Target = { op: '>=' | '<='; value: number };

export type Line = {
  id: string;
  section: number;
  label: string;
  unit: string;
  digits: number;
  target: Target | null;
  value: number | null;
  verdict: Verdict;
  note: string | null;
};

type LineSpec = Pick<Line, 'id' | 'section' | 'label' | 'unit' | 'digits'> & { target?: Target };

/**
 * The lines of the report, declared up front so that a figure a failed step never produced still
 * shows (as ERROR or SKIP) instead of silently missing.
 */
export class Scoreboard {
  readonly lines: Line[];

  constructor(specs: LineSpec[]) {
    this.lines = specs.map((spec) => ({ ...spec, target: spec.target ?? null, value: null, verdict: 'ERROR', note: null }));
  }

  private line(id: string): Line {
    const found = this.lines.find((line) => line.id === id);
    if (!found) throw new Error(`unknown report line ${id}`);
    return found;
  }

  /** Records a figure; `problem` (for example non-2xx answers) makes a targeted line a MISS. */
  set(id: string, value: number, { problem, note }: { problem?: string | null; note?: string } = {}) {
    const line = this.line(id);
    line.value = value;
    const notes = [problem ? `invalid run: ${problem}` : null, note ?? null].filter(Boolean);
    line.note = notes.length > 0 ? notes.join('; ') : null;
    if (!Number.isFinite(value)) line.verdict = 'ERROR';
    else if (!line.target) line.verdict = 'info';
    else if (problem) line.verdict = 'MISS';
    else line.verdict = (line.target.op === '>=' ? value >= line.target.value : value <= line.target.value) ? 'PASS' : 'MISS';
  }

  /** Marks every still-empty line whose id starts with `prefix`. */
  fail(prefix: string, verdict: 'ERROR' | 'SKIP', note: string) {
    for (const line of this.lines) {
      if (line.id.startsWith(prefix) && line.value === null) {
        line.verdict = verdict;
        line.note = note;
      }
    }
  }
}

export const formatNumber = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function formatTarget(line: Line): string {
  if (!line.target) return '';
  return `${line.target.op === '>=' ? '≥' : '≤'} ${formatNumber(line.target.value, line.digits === 0 ? 0 : Math.min(line.digits, 2))} ${line.unit}`.trim();
}

export function pad(text: string, width: number, right = false) {
  const length = [...text].length;
  if (length >= width) return text;
  return right ? ' '.repeat(width - length) + text : text + ' '.repeat(width - length);
}

export function renderTable(board: Scoreboard): string {
  const rows = board.lines.map((line) => [
    String(line.section),
    line.label,
    line.value === null ? '—' : `${formatNumber(line.value, line.digits)} ${line.unit}`.trim(),
    formatTarget(line),
    line.verdict,
  ]);
  const header = ['#', 'measure', 'figure', 'target', 'result'];
  const widths = header.map((title, column) => Math.max([...title].length, ...rows.map((row) => [...row[column]!].length)));
  const rightAligned = [false, false, true, true, false];
  const render = (row: string[]) => row.map((cell, column) => pad(cell, widths[column]!, rightAligned[column])).join('  ');
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  const out = [render(header), rule];
  let previousSection = board.lines[0]?.section;
  for (const [index, row] of rows.entries()) {
    const line = board.lines[index]!;
    if (line.section !== previousSection) out.push('');
    previousSection = line.section;
    out.push(render(row));
    if (line.note) out.push(`${' '.repeat(widths[0]! + 2)}  ↳ ${line.note}`);
  }
  out.push(rule);
  const count = (verdict: Verdict) => board.lines.filter((line) => line.verdict === verdict).length;
  out.push(
    `targets: ${count('PASS')} PASS, ${count('MISS')} MISS` +
      (count('ERROR') ? `, ${count('ERROR')} ERROR` : '') +
      (count('SKIP') ? `, ${count('SKIP')} SKIP` : ''),
  );
  return out.join('\n');
}

export function renderMachine(machine: MachineFacts): string {
  return [
    `machine: ${machine.cpuModel} — ${machine.logicalCores} logical cores (${machine.availableParallelism} available), ${machine.memoryGb} GiB`,
    `runtime: Node ${machine.node} on ${machine.platform} (kernel ${machine.kernel}), libuv thread pool ${machine.uvThreadpoolSize}`,
    `measured: commit ${machine.commit ?? 'unknown'}${machine.worktreeDirty ? ' + uncommitted changes' : ''}; autocannon ${machine.autocannon}, PGlite ${machine.pglite}`,
  ].join('\n');
}
