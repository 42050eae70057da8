import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Search from '@mui/icons-material/Search';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { SEARCH_DEBOUNCE_MS } from '@patientsim/domain/common/constants';
import {
  CASE_COLUMNS,
  CASE_FILTERS,
  CASE_SCROLL_DISTANCE,
  CASE_SEARCH_MAX,
  CASE_TEXTS,
  type CaseColumn,
  type CaseColumnKey,
  type CaseFilterKey,
  type CaseFilters,
  type CaseSort,
  type CaseUpdateChoice,
  caseDate,
  caseUpdateLabel,
  isCaseUpdatePending,
} from '@patientsim/domain/cases/case-list';
import type { CaseListItem, CaseUpdateResult } from '@patientsim/domain/cases/case-library.schemas';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { replyMessageOr } from '../../../lib/api-client';
import { type CaseListRequest, useCaseConfigurations } from '../api/get-case-configurations';
import { useSetFavorite } from '../api/set-favorite';
import { useUpdateEffectChains } from '../api/update-effect-chains';
import { DEFAULT_ORDER_TEXT, nextSort, readColumns, writeColumns } from './case-list-state';
import { CasePreview } from './case-preview';
import { ColumnMenu } from './column-menu';
import { UpdateConfirmBar } from './update-confirm-bar';

function cellOf(column: CaseColumn, item: CaseListItem): ReactNode {
  switch (column.key) {
    case 'patient':
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar src={item._avatar?.picture?.url ?? ''} alt="" sx={{ width: 32, height: 32 }} />
          <Typography variant="body2" noWrap>
            {item._avatar?.name.en ?? ''}
          </Typography>
        </Stack>
      );
    case 'scene1':
      return item._startLocation?.name.en ?? '';
    case 'scene2':
      return item._endLocation?.name.en ?? '';
    case 'origin':
      return item.origin ?? '';
    case 'author':
      return item.author?.name ?? '';
    case 'createdAt':
      return caseDate(item.createdAt);
    case 'lastPlayed':
      return caseDate(item.lastPlayed);
    case 'lastAccessed':
      return caseDate(item.lastAccessed);
    case 'published':
      return item.published ? 'Yes' : 'No';
    case 'applab':
      return item.applab ? 'Yes' : 'No';
  }
}

const DATE_COLUMNS: ReadonlySet<CaseColumnKey> = new Set(['createdAt', 'lastPlayed', 'lastAccessed']);

function FavoriteButton({ item, onToggle }: { item: CaseListItem; onToggle: (item: CaseListItem) => void }) {
  return (
    <IconButton
      aria-label={`Favorite ${item.name}`}
      aria-pressed={item.isFavorite}
      onClick={() => onToggle(item)}
      sx={{ color: item.isFavorite ? 'warning.dark' : 'action.active' }}
    >
      {item.isFavorite ? <Star /> : <StarBorder />}
    </IconButton>
  );
}

function CaseName({ item, onOpen }: { item: CaseListItem; onOpen: (item: CaseListItem) => void }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Link
        component="button"
        type="button"
        variant="body2"
        onClick={() => onOpen(item)}
        sx={{ textAlign: 'left', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {item.name}
      </Link>
      {item.errorsCount > 0 ? (
        <Tooltip title={CASE_TEXTS.needsUpdate}>
          <Box
            component="span"
            role="img"
            tabIndex={0}
            aria-label={CASE_TEXTS.needsUpdate}
            sx={{ display: 'inline-flex', flexShrink: 0 }}
          >
            <ErrorOutline color="error" fontSize="small" />
          </Box>
        </Tooltip>
      ) : null}
    </Stack>
  );
}

function UpdateCell({
  item,
  choice,
  onChoose,
}: {
  item: CaseListItem;
  choice: CaseUpdateChoice | undefined;
  onChoose: (id: string, choice: CaseUpdateChoice | null) => void;
}) {
  if (!isCaseUpdatePending(item)) return <>{caseUpdateLabel(item)}</>;
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={choice ?? null}
      onChange={(_event, value: CaseUpdateChoice | null) => onChoose(item.id, value)}
      aria-label={`Update ${item.name}`}
    >
      <ToggleButton value="YES" aria-label="Yes, update">
        Y
      </ToggleButton>
      <ToggleButton value="NO" aria-label="No, decline">
        N
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

/** Calls `onReach` when the element comes within CASE_SCROLL_DISTANCE px of the viewport. */
function useNearEnd(onReach: () => void) {
  const observer = useRef<IntersectionObserver | null>(null);
  return useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || typeof IntersectionObserver === 'undefined') return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) onReach();
        },
        { rootMargin: `0px 0px ${CASE_SCROLL_DISTANCE}px 0px` },
      );
      observer.current.observe(element);
    },
    [onReach],
  );
}

/**
 * The scenario library (spec sections 2, 4, 5 and 9; decisions 11 and 12): search, filters,
 * the chosen columns with their sort, the favourite star, the Update column with its
 * confirmation bar, infinite scroll with Load more, and the preview panel. Students see no
 * columns and no template information.
 */
export function CaseLibrary({ productType, isStudent }: { productType: string; isStudent: boolean }) {
  const [columns, setColumns] = useState<CaseColumnKey[]>(() => readColumns(productType));
  const [sort, setSort] = useState<CaseSort | null>(null);
  const [filters, setFilters] = useState<CaseFilters>({});
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const searchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [choices, setChoices] = useState<ReadonlyMap<string, CaseUpdateChoice>>(new Map());
  const [updateFailures, setUpdateFailures] = useState<string[]>([]);
  const [favoriteError, setFavoriteError] = useState<string | null>(null);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });

  const request: CaseListRequest = useMemo(() => ({ sort, filters, search }), [sort, filters, search]);
  const list = useCaseConfigurations(request);
  const setFavorite = useSetFavorite();
  const updateEffectChains = useUpdateEffectChains();

  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const totalCount = list.data?.pages.at(-1)?.totalCount ?? 0;
  const preview = items.find((item) => item.id === previewId) ?? null;
  // A choice stays while its case still offers Y/N: a refetch may show it updated or declined since.
  const pendingChoices = useMemo(() => {
    const byId = new Map(items.map((item) => [item.id, item]));
    return new Map(
      [...choices].filter(([id]) => {
        const item = byId.get(id);
        return !item || isCaseUpdatePending(item);
      }),
    );
  }, [choices, items]);
  const shownColumns = isStudent ? [] : CASE_COLUMNS.filter((column) => columns.includes(column.key));
  const filterChoices = CASE_FILTERS.filter((filter) => !isStudent || filter.key !== 'template');
  const activeFilterCount = filterChoices.filter((filter) => filters[filter.key]).length;

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const endRef = useNearEnd(loadMore);

  const changeSearch = (value: string) => {
    setSearchInput(value);
    if (searchTimer.current) clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => setSearch(value.trim()), SEARCH_DEBOUNCE_MS);
  };
  const changeColumns = (next: CaseColumnKey[]) => {
    setColumns(next);
    writeColumns(productType, next);
  };
  const toggleFilter = (key: CaseFilterKey) => setFilters((current) => ({ ...current, [key]: !current[key] }));
  const toggleFavorite = (item: CaseListItem) => {
    setFavoriteError(null);
    setFavorite.mutate(
      { id: item.id, isFavorite: !item.isFavorite },
      { onError: (error) => setFavoriteError(replyMessageOr(error, CASE_TEXTS.unknownError)) },
    );
  };
  const choose = (id: string, choice: CaseUpdateChoice | null) =>
    setChoices((current) => {
      const next = new Map(current);
      if (choice) next.set(id, choice);
      else next.delete(id);
      return next;
    });
  const confirmChoices = () => {
    setUpdateFailures([]);
    const decisions = [...pendingChoices].map(([id, choice]) => ({ id, choice }));
    updateEffectChains.mutate(decisions, {
      onSuccess: (results: CaseUpdateResult[]) => {
        setChoices(new Map());
        const names = new Map(items.map((item) => [item.id, item.name]));
        setUpdateFailures(
          results.filter((result) => result.error).map((result) => `${names.get(result.id) ?? result.id}: ${result.error ?? ''}`),
        );
      },
      onError: (error) => setUpdateFailures([replyMessageOr(error, CASE_TEXTS.unknownError)]),
    });
  };

  const sortHeader = (column: CaseColumn) => {
    if (!column.sortKey) return column.label;
    const sortKey = column.sortKey;
    const isActive = sort?.field === sortKey;
    return (
      <TableSortLabel
        active={isActive}
        direction={isActive && sort?.direction === 'DESC' ? 'desc' : 'asc'}
        onClick={() => setSort(nextSort(sort, sortKey))}
      >
        {column.label}
      </TableSortLabel>
    );
  };
  const ariaSortOf = (column: CaseColumn) =>
    column.sortKey && sort?.field === column.sortKey ? (sort.direction === 'ASC' ? 'ascending' : 'descending') : undefined;
  const sortedColumn = CASE_COLUMNS.find((column) => column.sortKey && column.sortKey === sort?.field);

  const totalWidth = shownColumns.reduce((sum, column) => sum + column.width, 0) + 2.5;
  const widthOf = (share: number) => `${((share / totalWidth) * 100).toFixed(1)}%`;

  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <TextField
          label="Search scenarios"
          type="search"
          size="small"
          value={searchInput}
          onChange={(event) => changeSearch(event.target.value)}
          helperText="Searches names, tags and scenario text"
          slotProps={{
            htmlInput: { maxLength: CASE_SEARCH_MAX },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search />
                </InputAdornment>
              ),
            },
          }}
          sx={{ flexGrow: 1, maxWidth: { sm: 420 } }}
        />
        {isStudent ? null : <ColumnMenu shown={columns} onChange={changeColumns} />}
      </Stack>

      <Stack direction="row" role="group" aria-label="Filters" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
        {filterChoices.map((filter) => {
          const isOn = Boolean(filters[filter.key]);
          return (
            <Chip
              key={filter.key}
              label={filter.label}
              clickable
              color={isOn ? 'primary' : 'default'}
              variant={isOn ? 'filled' : 'outlined'}
              onClick={() => toggleFilter(filter.key)}
              aria-pressed={isOn}
              component="button"
            />
          );
        })}
        {activeFilterCount > 0 ? (
          <Button size="small" onClick={() => setFilters({})}>
            Clear all
          </Button>
        ) : null}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography variant="body2" role="status" aria-live="polite">
          {list.data ? `Showing ${items.length} of ${totalCount} ${totalCount === 1 ? 'scenario' : 'scenarios'}` : ''}
        </Typography>
        {isStudent ? null : (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" color="text.secondary">
              {sort && sortedColumn
                ? `Sorted by ${sortedColumn.label}, ${sort.direction === 'ASC' ? 'ascending' : 'descending'}.`
                : DEFAULT_ORDER_TEXT}
            </Typography>
            {sort ? (
              <Button size="small" onClick={() => setSort(null)}>
                Default order
              </Button>
            ) : null}
          </Stack>
        )}
      </Stack>

      {favoriteError ? (
        <Alert severity="error" onClose={() => setFavoriteError(null)} sx={{ mb: 2 }}>
          {favoriteError}
        </Alert>
      ) : null}
      {updateFailures.length > 0 ? (
        <Alert severity="error" onClose={() => setUpdateFailures([])} sx={{ mb: 2 }}>
          {updateFailures.map((failure) => (
            <div key={failure}>{failure}</div>
          ))}
        </Alert>
      ) : null}

      {list.isError && !list.data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void list.refetch()}>
              Retry
            </Button>
          }
        >
          <AlertTitle>{CASE_TEXTS.loadError}</AlertTitle>
          {replyMessageOr(list.error, CASE_TEXTS.unknownError)}
        </Alert>
      ) : list.isPending ? (
        <Box aria-busy="true" aria-label="Loading scenarios">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} variant="rectangular" height={48} sx={{ mb: 1, borderRadius: 1 }} />
          ))}
        </Box>
      ) : (
        <>
          <Box sx={{ height: 4 }}>
            {list.isFetching && !isFetchingNextPage ? <LinearProgress aria-label="Refreshing scenarios" /> : null}
          </Box>
          {items.length === 0 ? (
            <Typography sx={{ py: 4, textAlign: 'center' }}>No scenarios to show</Typography>
          ) : isPhone ? (
            <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Scenarios">
              {items.map((item) => (
                <Card component="li" key={item.id} variant="outlined">
                  <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
                    <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                        <CaseName item={item} onOpen={(opened) => setPreviewId(opened.id)} />
                      </Box>
                      <FavoriteButton item={item} onToggle={toggleFavorite} />
                    </Stack>
                    {shownColumns.map((column) => (
                      <Typography key={column.key} variant="body2" component="div">
                        <Box component="span" sx={{ color: 'text.secondary' }}>
                          {column.label}:{' '}
                        </Box>
                        {cellOf(column, item)}
                      </Typography>
                    ))}
                    {isStudent ? null : (
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <Typography variant="body2" color="text.secondary">
                          Update:
                        </Typography>
                        <UpdateCell item={item} choice={choices.get(item.id)} onChoose={choose} />
                      </Stack>
                    )}
                  </CardContent>
                </Card>
              ))}
            </Stack>
          ) : (
            <TableContainer tabIndex={0} role="region" aria-label="Scenarios">
              <Table size="small" stickyHeader sx={{ tableLayout: 'fixed' }}>
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ width: 56 }}>
                      <Box
                        component="span"
                        sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
                      >
                        Favorite
                      </Box>
                    </TableCell>
                    <TableCell sx={{ width: widthOf(1.5) }}>Name</TableCell>
                    {shownColumns.map((column) => (
                      <TableCell key={column.key} aria-sort={ariaSortOf(column)} sx={{ width: widthOf(column.width) }}>
                        {sortHeader(column)}
                      </TableCell>
                    ))}
                    {isStudent ? null : <TableCell sx={{ width: 112 }}>Update</TableCell>}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {items.map((item) => (
                    <TableRow key={item.id} hover sx={{ height: 56 }}>
                      <TableCell padding="none" sx={{ pl: 1 }}>
                        <FavoriteButton item={item} onToggle={toggleFavorite} />
                      </TableCell>
                      <TableCell>
                        <CaseName item={item} onOpen={(opened) => setPreviewId(opened.id)} />
                      </TableCell>
                      {shownColumns.map((column) => (
                        <TableCell
                          key={column.key}
                          sx={{
                            overflow: 'hidden',
                            textOverflow: 'ellipsis',
                            whiteSpace: 'nowrap',
                            ...(DATE_COLUMNS.has(column.key) ? { fontVariantNumeric: 'tabular-nums' } : {}),
                          }}
                        >
                          {cellOf(column, item)}
                        </TableCell>
                      ))}
                      {isStudent ? null : (
                        <TableCell>
                          <UpdateCell item={item} choice={choices.get(item.id)} onChoose={choose} />
                        </TableCell>
                      )}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          <Box ref={endRef} sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            {hasNextPage ? (
              <Button
                variant="outlined"
                onClick={loadMore}
                disabled={isFetchingNextPage}
                startIcon={isFetchingNextPage ? <CircularProgress size={16} color="inherit" /> : null}
              >
                Load more
              </Button>
            ) : null}
          </Box>
        </>
      )}

      {pendingChoices.size > 0 ? (
        <UpdateConfirmBar
          count={pendingChoices.size}
          isPending={updateEffectChains.isPending}
          onConfirm={confirmChoices}
          onClear={() => setChoices(new Map())}
        />
      ) : null}
      <CasePreview item={preview} onClose={() => setPreviewId(null)} />
    </Box>
  );
}
