import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SEARCH_MIN_LENGTH } from '@patientsim/domain/common/constants';
import { pageCount } from '@patientsim/domain/common/page.schemas';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../lib/api-client';
import { useDebouncedTerm } from '../lib/use-debounced-term';
import { EmptyState } from './empty-state';
import { RowCards } from './row-cards';
import { touchTargetSx, useIsPhone } from './use-is-phone';

export type DataTableColumn<Row> = {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'right';
  /**
   * The row's actions (its menu or buttons): on a phone they sit beside the card's title rather
   * than on a labelled line of their own (see RowCards).
   */
  isRowActions?: boolean;
};

/** A table of server pages: 'page X of N' and the buttons to page. */
export type DataTablePaging = {
  total: number;
  /** 0-based. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
};

type DataTableBaseProps<Row> = {
  /** Names the table for assistive technology. */
  label: string;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  getRowKey: (row: Row) => string;
  /** Called with the term to search for (SEARCH_DEBOUNCE_MS after typing stops), or '' to clear. */
  onSearch?: (term: string) => void;
  searchLabel?: string;
  /** The first load: nothing to show yet. */
  isLoading: boolean;
  /** A later page or search loads while the current rows stay. */
  isFetching: boolean;
  error: unknown;
  onRetry: () => void;
  /** Why the table is empty (see EmptyState). */
  emptyMessage: string;
};

/** Without the paging props the table shows every row it is given, with no pager (a short list, such as the groups). */
export type DataTableProps<Row> = DataTableBaseProps<Row> & (DataTablePaging | { [Key in keyof DataTablePaging]?: never });

/**
 * A body row as tall as one holding an icon button (a row's action menu): rows with and without a
 * menu line up. The small cell's padding and bottom border come on top of the button's 40 px.
 */
const BODY_ROW_HEIGHT = 6 + 40 + 6 + 1;

/** Whether the table is wider than its box (it scrolls sideways), kept up to date as either changes size. */
function useHorizontalOverflow() {
  const containerRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const container = containerRef.current;
    if (!container || typeof ResizeObserver === 'undefined') return;
    const check = () => setOverflows(container.scrollWidth > container.clientWidth);
    const observer = new ResizeObserver(check);
    observer.observe(container);
    if (tableRef.current) observer.observe(tableRef.current);
    check();
    return () => observer.disconnect();
  }, []);
  return { containerRef, tableRef, overflows };
}

export const SEARCH_HINT = `Enter at least ${SEARCH_MIN_LENGTH} characters to search`;

/**
 * A table over server-side data, as cards on a phone: 'page X of N' when it is paged, a debounced
 * search box (terms shorter than SEARCH_MIN_LENGTH are never sent, spec section 5), a thin progress
 * bar while the next page loads over the current rows, and the empty and error states of spec
 * section 2.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  getRowKey,
  onSearch,
  searchLabel = 'Search',
  isLoading,
  isFetching,
  error,
  onRetry,
  emptyMessage,
  ...paging
}: DataTableProps<Row>) {
  const isPhone = useIsPhone();
  return (
    <Stack spacing={2}>
      {onSearch ? <SearchBox label={searchLabel} onSearch={onSearch} /> : null}
      {error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={onRetry}>
              Retry
            </Button>
          }
        >
          <AlertTitle>An error occurred</AlertTitle>
          {errorMessage(error, 'Unknown error')}
        </Alert>
      ) : isPhone ? (
        <Box>
          <Box sx={{ height: 4, mb: 1 }}>{isLoading || isFetching ? <LinearProgress aria-label="Loading" /> : null}</Box>
          <RowCards label={label} columns={columns} rows={rows} getRowKey={getRowKey} isBusy={isLoading || isFetching} />
          {!isLoading && rows.length === 0 ? <EmptyState message={emptyMessage} /> : null}
        </Box>
      ) : (
        <TableView
          label={label}
          columns={columns}
          rows={rows}
          getRowKey={getRowKey}
          isLoading={isLoading}
          isFetching={isFetching}
          emptyMessage={emptyMessage}
        />
      )}
      {paging.onPageChange === undefined ? null : <Pager {...paging} />}
    </Stack>
  );
}

/** 'page X of N' between the buttons to the previous and the next page. */
function Pager({ total, page, pageSize, onPageChange }: DataTablePaging) {
  const pages = pageCount(total, pageSize);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <IconButton aria-label="Previous page" sx={touchTargetSx} disabled={page <= 0} onClick={() => onPageChange(page - 1)}>
        <ChevronLeft />
      </IconButton>
      <Typography>
        page {Math.min(page + 1, pages)} of {pages}
      </Typography>
      <IconButton aria-label="Next page" sx={touchTargetSx} disabled={page + 1 >= pages} onClick={() => onPageChange(page + 1)}>
        <ChevronRight />
      </IconButton>
    </Stack>
  );
}

/** The rows as a table, on screens wider than a phone's. */
function TableView<Row>({
  label,
  columns,
  rows,
  getRowKey,
  isLoading,
  isFetching,
  emptyMessage,
}: Pick<DataTableProps<Row>, 'label' | 'columns' | 'rows' | 'getRowKey' | 'isLoading' | 'isFetching' | 'emptyMessage'>) {
  const { containerRef, tableRef, overflows } = useHorizontalOverflow();
  return (
    <Paper variant="outlined" sx={{ position: 'relative' }}>
      {/* The rows stay while the next page loads; the bar says something is coming. */}
      <Box sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 4 }}>
        {isLoading || isFetching ? <LinearProgress aria-label="Loading" /> : null}
      </Box>
      <TableContainer
        ref={containerRef}
        // Wider than the page: a keyboard reaches the hidden columns by focusing the table's box.
        {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': `${label}, scrolls sideways` } : {})}
      >
        <Table ref={tableRef} size="small" aria-label={label} aria-busy={isLoading || isFetching}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.key} align={column.align}>
                  {column.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={getRowKey(row)} sx={{ height: BODY_ROW_HEIGHT }}>
                {columns.map((column) => (
                  <TableCell key={column.key} align={column.align}>
                    {column.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {!isLoading && rows.length === 0 ? <EmptyState message={emptyMessage} /> : null}
    </Paper>
  );
}

/** The search box: what is typed is sent once typing stops, and only when long enough. */
function SearchBox({ label, onSearch }: { label: string; onSearch: (term: string) => void }) {
  const [value, setValue] = useState('');
  const search = useDebouncedTerm(onSearch, { keepOnShortTerm: true });
  const trimmed = value.trim();
  const isTooShort = trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH;

  function handleChange(next: string) {
    setValue(next);
    search(next);
  }

  return (
    <TextField
      label={label}
      type="search"
      size="small"
      value={value}
      onChange={(event) => handleChange(event.target.value)}
      helperText={isTooShort ? SEARCH_HINT : ' '}
      sx={{ maxWidth: 360 }}
    />
  );
}
