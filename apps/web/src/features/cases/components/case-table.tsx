import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { CaseColumn, CaseSort, CaseSortField, CaseUpdateChoice } from '@patientsim/domain/cases/case-list';
import type { CaseListItem } from '@patientsim/domain/cases/case-library.schemas';
import { Fragment, useCallback, useRef, useState } from 'react';
import { belowAppBar } from '../../../lib/below-app-bar';
import { CaseName, DATE_COLUMNS, FavoriteButton, UpdateCell, cellOf } from './case-cells';
import { useWindowRows } from './use-window-rows';

/** The rows' height (UX: a fixed row height); rendered rows are measured all the same. */
const ROW_HEIGHT = 56;
/** The header row's height until measured (its labels may wrap to two lines). */
const HEADER_HEIGHT = 40;

/** The height of the element given `ref={measure}`, kept up to date as it changes (`fallback` until measured). */
function useHeight<T extends HTMLElement>(fallback: number) {
  const [height, setHeight] = useState(fallback);
  const observer = useRef<ResizeObserver | null>(null);
  const measure = useCallback(
    (element: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || typeof ResizeObserver === 'undefined') return;
      observer.current = new ResizeObserver(() => setHeight(Math.ceil(element.getBoundingClientRect().height) || fallback));
      observer.current.observe(element);
    },
    [fallback],
  );
  return { measure, height };
}

/** Columns whose texts are short and never wrap: dates and Yes/No. */
const isShortColumn = (column: CaseColumn) =>
  DATE_COLUMNS.has(column.key) || column.key === 'published' || column.key === 'applab';

/** Keeps the place of rows that are not rendered; hidden from assistive technology. */
function SpacerRow({ height, colSpan }: { height: number; colSpan: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={colSpan} style={{ padding: 0, border: 0 }} />
    </tr>
  );
}

export type CaseTableProps = {
  items: readonly CaseListItem[];
  /** How many cases the list has in all, loaded or not; -1 when there are more than the list counts. */
  totalCount: number;
  columns: readonly CaseColumn[];
  isStudent: boolean;
  /** Whether the rows offer the favourite star (a public content reader's list does not). */
  canFavorite: boolean;
  sort: CaseSort | null;
  onSort: (field: CaseSortField) => void;
  choices: ReadonlyMap<string, CaseUpdateChoice>;
  onChoose: (id: string, choice: CaseUpdateChoice | null) => void;
  onToggleFavorite: (item: CaseListItem) => void;
  onOpen: (item: CaseListItem) => void;
};

/**
 * The scenario table (spec section 2): the star, the name, the chosen columns with their sort
 * and the Update column. Its rows are virtualised (decision 0029): the table keeps its semantics
 * with `aria-rowcount` (every case of the list, and the header) and each row's `aria-rowindex`.
 * The page scrolls, not the table: its header sticks below the app bar (UX: sticky headers), and
 * what a row focuses is scrolled into view clear of both.
 */
export function CaseTable({
  items,
  totalCount,
  columns,
  isStudent,
  canFavorite,
  sort,
  onSort,
  choices,
  onChoose,
  onToggleFavorite,
  onOpen,
}: CaseTableProps) {
  const { listRef, rows, gapAfter, measureRow, onRowFocus } = useWindowRows<HTMLTableSectionElement, HTMLTableRowElement>({
    items,
    estimateSize: ROW_HEIGHT,
  });

  const { measure: measureHeader, height: headerHeight } = useHeight<HTMLTableSectionElement>(HEADER_HEIGHT);

  const columnCount = (canFavorite ? 1 : 0) + 1 + columns.length + (isStudent ? 0 : 1);
  const ariaSortOf = (column: CaseColumn) =>
    column.sortKey && sort?.field === column.sortKey ? (sort.direction === 'ASC' ? 'ascending' : 'descending') : undefined;
  const sortHeader = (column: CaseColumn) => {
    if (!column.sortKey) return column.label;
    const sortKey = column.sortKey;
    const isActive = sort?.field === sortKey;
    return (
      <TableSortLabel
        active={isActive}
        direction={isActive && sort?.direction === 'DESC' ? 'desc' : 'asc'}
        onClick={() => onSort(sortKey)}
      >
        {column.label}
      </TableSortLabel>
    );
  };

  return (
    // Clipped rather than scrolling sideways (the columns share its width): a box that scrolls
    // would hold the sticky header, which then scrolls away with the page.
    <TableContainer tabIndex={0} role="region" aria-label="Scenarios" sx={{ overflowX: 'clip' }}>
      <Table
        size="small"
        stickyHeader
        // Columns size to their content (issue 22): the star and the Update column keep their
        // widths, the texts share the rest by their length and wrap between words when it is short,
        // so a name is never cut to a few letters while another column has room.
        sx={{ tableLayout: 'auto' }}
        aria-rowcount={totalCount < 0 ? -1 : Math.max(totalCount, items.length) + 1}
      >
        <TableHead ref={measureHeader}>
          <TableRow aria-rowindex={1} sx={(theme) => ({ '& th': belowAppBar(theme, 'top') })}>
            {canFavorite ? (
              <TableCell sx={{ width: 56 }}>
                <Box
                  component="span"
                  sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
                >
                  Favorite
                </Box>
              </TableCell>
            ) : null}
            <TableCell>Name</TableCell>
            {columns.map((column) => (
              <TableCell
                key={column.key}
                aria-sort={ariaSortOf(column)}
                sx={{ whiteSpace: isShortColumn(column) ? 'nowrap' : 'normal' }}
              >
                {sortHeader(column)}
              </TableCell>
            ))}
            {isStudent ? null : <TableCell sx={{ width: 112 }}>Update</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody ref={listRef} sx={(theme) => ({ '& td *': belowAppBar(theme, 'scrollMarginTop', headerHeight) })}>
          {rows.map(({ index, key, gapBefore }) => {
            const item = items[index];
            if (!item) return null;
            return (
              <Fragment key={key}>
                <SpacerRow height={gapBefore} colSpan={columnCount} />
                <TableRow
                  ref={measureRow}
                  data-index={index}
                  aria-rowindex={index + 2}
                  hover
                  onFocus={() => onRowFocus(item.id)}
                  sx={{ height: ROW_HEIGHT }}
                >
                  {canFavorite ? (
                    <TableCell padding="none" sx={{ pl: 1 }}>
                      <FavoriteButton item={item} onToggle={onToggleFavorite} />
                    </TableCell>
                  ) : null}
                  <TableCell>
                    <CaseName item={item} onOpen={onOpen} />
                  </TableCell>
                  {columns.map((column) => (
                    <TableCell
                      key={column.key}
                      sx={{
                        whiteSpace: isShortColumn(column) ? 'nowrap' : 'normal',
                        overflowWrap: 'break-word',
                        ...(DATE_COLUMNS.has(column.key) ? { fontVariantNumeric: 'tabular-nums' } : {}),
                      }}
                    >
                      {cellOf(column, item)}
                    </TableCell>
                  ))}
                  {isStudent ? null : (
                    <TableCell>
                      <UpdateCell item={item} choice={choices.get(item.id)} onChoose={onChoose} />
                    </TableCell>
                  )}
                </TableRow>
              </Fragment>
            );
          })}
          <SpacerRow height={gapAfter} colSpan={columnCount} />
        </TableBody>
      </Table>
    </TableContainer>
  );
}
