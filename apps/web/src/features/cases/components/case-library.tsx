import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
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
  type CaseColumnKey,
  type CaseFilterKey,
  type CaseFilters,
  type CaseSort,
  type CaseUpdateChoice,
  caseCountText,
  isCaseUpdatePending,
} from '@patientsim/domain/cases/case-list';
import type { CaseListItem, CaseUpdateResult } from '@patientsim/domain/cases/case-library.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { replyMessageOr } from '../../../lib/api-client';
import { seedCaseConfiguration, useCaseConfiguration } from '../api/get-case-configuration';
import { type CaseListRequest, useCaseConfigurations } from '../api/get-case-configurations';
import { useSetFavorite } from '../api/set-favorite';
import { useUpdateEffectChains } from '../api/update-effect-chains';
import { DEFAULT_ORDER_TEXT, nextSort, readColumns, writeColumns } from './case-list-state';
import { CaseCards } from './case-cards';
import { CasePreview } from './case-preview';
import { CaseTable } from './case-table';
import { ColumnMenu } from './column-menu';
import { UpdateConfirmBar } from './update-confirm-bar';

/** The query parameter naming the previewed case (a notification's CASE_LINK action sets it). */
const PREVIEW_PARAM = 'caseId';

/** A `?caseId=` link to a case that does not exist or that the caller may not read: the server answers both alike. */
const CASE_LINK_UNUSABLE_TEXT = 'This scenario does not exist, or you do not have access to it.';

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
 * confirmation bar, infinite scroll with Load more over virtualised rows (decision 0029), and the
 * preview panel, which the address names (`?caseId=`). Students see no columns and no template
 * information.
 */
export function CaseLibrary({
  productType,
  isStudent,
  isReadOnly = false,
}: {
  productType: string;
  isStudent: boolean;
  /**
   * The public scenarios a person without an organisation reads (spec section 1): no columns,
   * filters, favourites or updates, which belong to an organisation's library.
   */
  isReadOnly?: boolean;
}) {
  const [columns, setColumns] = useState<CaseColumnKey[]>(() => readColumns(productType));
  const [sort, setSort] = useState<CaseSort | null>(null);
  const [filters, setFilters] = useState<CaseFilters>({});
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const searchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [choices, setChoices] = useState<ReadonlyMap<string, CaseUpdateChoice>>(new Map());
  const [updateFailures, setUpdateFailures] = useState<string[]>([]);
  const [favoriteError, setFavoriteError] = useState<string | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  // The previewed case is in the address (`?caseId=`): a notification's case link opens it, and
  // a preview opened from a row is a link to share.
  const previewId = searchParams.get(PREVIEW_PARAM) || null;
  const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });

  const request: CaseListRequest = useMemo(() => ({ sort, filters, search }), [sort, filters, search]);
  const list = useCaseConfigurations(request);
  const setFavorite = useSetFavorite();
  const updateEffectChains = useUpdateEffectChains();

  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const lastPage = list.data?.pages.at(-1);
  // The rows' count for assistive technology: -1 (unknown) past the counting limit.
  const totalCount = lastPage ? (lastPage.totalCountCapped ? -1 : lastPage.totalCount) : 0;
  const listed = items.find((item) => item.id === previewId) ?? null;
  // A linked case the list has not loaded (a later page, another filter) is read on its own.
  const linked = useCaseConfiguration(previewId, { isEnabled: !listed });
  const preview = listed ?? linked.data ?? null;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (listed) seedCaseConfiguration(queryClient, listed);
  }, [listed, queryClient]);
  const isLinkUnusable = previewId !== null && !listed && (linked.isError || (linked.isSuccess && linked.data === null));
  // A choice stays while its case still offers Y/N: a refetch may show it updated or declined since.
  const pendingChoices = useMemo(() => {
    const byId = new Map(items.map((item) => [item.id, item]));
    return new Map(
      [...choices].filter(([id]) => {
        const item = byId.get(id);
        return !item || (item.canUpdate && isCaseUpdatePending(item));
      }),
    );
  }, [choices, items]);
  const isPlainList = isStudent || isReadOnly;
  const shownColumns = isPlainList ? [] : CASE_COLUMNS.filter((column) => columns.includes(column.key));
  const filterChoices = isReadOnly ? [] : CASE_FILTERS.filter((filter) => !isStudent || filter.key !== 'template');
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

  const sortedColumn = CASE_COLUMNS.find((column) => column.sortKey && column.sortKey === sort?.field);
  const setPreviewId = useCallback(
    (id: string | null) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id === null) next.delete(PREVIEW_PARAM);
          else next.set(PREVIEW_PARAM, id);
          return next;
        },
        // The preview is a state of this page, not a page to go back to; the list keeps its scroll.
        { replace: true, preventScrollReset: true },
      ),
    [setSearchParams],
  );
  const openPreview = useCallback((item: CaseListItem) => setPreviewId(item.id), [setPreviewId]);
  const listProps = {
    items,
    totalCount,
    columns: shownColumns,
    isStudent: isPlainList,
    canFavorite: !isReadOnly,
    choices: pendingChoices,
    onChoose: choose,
    onToggleFavorite: toggleFavorite,
    onOpen: openPreview,
  };

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
        {isPlainList ? null : <ColumnMenu shown={columns} onChange={changeColumns} />}
      </Stack>

      {filterChoices.length === 0 ? null : (
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
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography variant="body2" role="status" aria-live="polite">
          {lastPage ? caseCountText(items.length, lastPage.totalCount, lastPage.totalCountCapped) : ''}
        </Typography>
        {isPlainList ? null : (
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

      {isLinkUnusable ? (
        <Alert severity="warning" onClose={() => setPreviewId(null)} sx={{ mb: 2 }}>
          {CASE_LINK_UNUSABLE_TEXT}
        </Alert>
      ) : null}
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
            <CaseCards {...listProps} />
          ) : (
            <CaseTable {...listProps} sort={sort} onSort={(field) => setSort(nextSort(sort, field))} />
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
