import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CaseMediaDigests } from '@patientsim/domain/cases/case-copy.schemas';
import { useMemo } from 'react';

/** A JSON value printed with its object keys sorted, so key order never shows as a difference. */
export function stableJson(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(
        Object.keys(item)
          .sort()
          .map((key) => [key, sort((item as Record<string, unknown>)[key])]),
      );
    }
    return item;
  };
  return JSON.stringify(sort(value), null, 2);
}

/**
 * The media files a case shows, one line each after its document, as the environment serves them:
 * type, size and the start of the SHA-256, or 'missing'. A picture that did not arrive, or arrived
 * different, shows as a changed line.
 */
export function mediaText(media: CaseMediaDigests | undefined): string {
  const urls = Object.keys(media ?? {}).sort();
  if (!media || urls.length === 0) return '';
  const lines = urls.map((url) => {
    const digest = media[url];
    return digest
      ? `${url}: ${digest.contentType}, ${digest.size} bytes, sha256 ${digest.sha256.slice(0, 16)}`
      : `${url}: missing`;
  });
  return `\nmedia files:\n${lines.join('\n')}`;
}

export type DiffRow = { left: string | null; right: string | null; changed: boolean };

/** Past this many cells the line table is not built (both documents then show unaligned). */
const DIFF_CELLS_MAX = 4_000_000;

/**
 * The two texts line by line, aligned on their longest common subsequence: equal lines side by
 * side, removed lines on the left only, added lines on the right only.
 */
export function diffLines(leftText: string, rightText: string): DiffRow[] {
  const left = leftText.split('\n');
  const right = rightText.split('\n');
  // Common head and tail first: most of two similar documents, and no table for them.
  let head = 0;
  while (head < left.length && head < right.length && left[head] === right[head]) head += 1;
  let tail = 0;
  while (
    tail < left.length - head &&
    tail < right.length - head &&
    left[left.length - 1 - tail] === right[right.length - 1 - tail]
  )
    tail += 1;
  const a = left.slice(head, left.length - tail);
  const b = right.slice(head, right.length - tail);
  const same = (line: string): DiffRow => ({ left: line, right: line, changed: false });
  const rows: DiffRow[] = left.slice(0, head).map(same);

  if ((a.length + 1) * (b.length + 1) > DIFF_CELLS_MAX) {
    for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
      rows.push({ left: a[index] ?? null, right: b[index] ?? null, changed: true });
    }
  } else {
    const width = b.length + 1;
    const table = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i -= 1) {
      for (let j = b.length - 1; j >= 0; j -= 1) {
        table[i * width + j] =
          a[i] === b[j]
            ? (table[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        rows.push(same(a[i] as string));
        i += 1;
        j += 1;
      } else if (i < a.length && (j === b.length || (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))) {
        // On a tie the removed line goes first: a change reads as the old line, then the new one.
        rows.push({ left: a[i] as string, right: null, changed: true });
        i += 1;
      } else {
        rows.push({ left: null, right: b[j] as string, changed: true });
        j += 1;
      }
    }
  }
  rows.push(...left.slice(left.length - tail).map(same));
  return rows;
}

const cell = {
  fontFamily: 'monospace',
  fontSize: 13,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  px: 1,
  verticalAlign: 'top',
} as const;

/** Two case documents side by side, changed lines marked (colour and a sign, not colour alone). */
export function CaseDiff({
  left,
  right,
  leftMedia,
  rightMedia,
  leftLabel,
  rightLabel,
}: {
  left: unknown;
  right: unknown;
  leftMedia?: CaseMediaDigests | undefined;
  rightMedia?: CaseMediaDigests | undefined;
  leftLabel: string;
  rightLabel: string;
}) {
  const rows = useMemo(
    () => diffLines(stableJson(left) + mediaText(leftMedia), stableJson(right) + mediaText(rightMedia)),
    [left, right, leftMedia, rightMedia],
  );
  const changes = rows.filter((row) => row.changed).length;
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {changes === 0 ? 'No line differs.' : `${changes} ${changes === 1 ? 'line differs' : 'lines differ'}.`}
      </Typography>
      <Box
        // A table wider or taller than its box scrolls: keyboard users reach it too.
        tabIndex={0}
        role="region"
        aria-label="Difference between the two case documents"
        sx={{ maxHeight: 480, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
      >
        <Box component="table" sx={{ borderCollapse: 'collapse', width: '100%', tableLayout: 'fixed' }}>
          <thead>
            <tr>
              <Box component="th" scope="col" sx={{ textAlign: 'left', px: 1, py: 0.5, bgcolor: 'grey.100' }}>
                {leftLabel}
              </Box>
              <Box component="th" scope="col" sx={{ textAlign: 'left', px: 1, py: 0.5, bgcolor: 'grey.100' }}>
                {rightLabel}
              </Box>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              // Rows are positional: the diff is recomputed as a whole.
              <tr key={index}>
                <Box component="td" sx={{ ...cell, bgcolor: row.changed && row.left !== null ? '#ffebe9' : undefined }}>
                  {row.left === null ? '' : `${row.changed ? '- ' : '  '}${row.left}`}
                </Box>
                <Box component="td" sx={{ ...cell, bgcolor: row.changed && row.right !== null ? '#e6ffec' : undefined }}>
                  {row.right === null ? '' : `${row.changed ? '+ ' : '  '}${row.right}`}
                </Box>
              </tr>
            ))}
          </tbody>
        </Box>
      </Box>
    </Box>
  );
}
