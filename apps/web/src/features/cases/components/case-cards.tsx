import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CaseName, FavoriteButton, UpdateCell, cellOf } from './case-cells';
import type { CaseTableProps } from './case-table';
import { useWindowRows } from './use-window-rows';

/** A card's usual height with the default columns; rendered cards are measured. */
const CARD_HEIGHT = 220;

/**
 * The scenario list on phones (UX: card lists at 390 px): one card per case with the chosen
 * columns as labelled lines. Virtualised like the table (decision 0029); each card says its place
 * in the whole list (`aria-posinset` of `aria-setsize`).
 */
export function CaseCards({
  items,
  totalCount,
  columns,
  isStudent,
  canFavorite,
  choices,
  onChoose,
  onToggleFavorite,
  onOpen,
}: Omit<CaseTableProps, 'sort' | 'onSort'>) {
  const { listRef, rows, gapAfter, measureRow, onRowFocus } = useWindowRows<HTMLUListElement, HTMLLIElement>({
    items,
    estimateSize: CARD_HEIGHT,
  });
  const setSize = totalCount < 0 ? -1 : Math.max(totalCount, items.length);

  // The space of cards not rendered is the next rendered card's top margin; `flow-root` keeps the
  // first one from collapsing through the list's own top, which is where the virtualiser measures from.
  return (
    <Box
      component="ul"
      ref={listRef}
      aria-label="Scenarios"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'flow-root' }}
      style={{ paddingBottom: gapAfter }}
    >
      {rows.map(({ index, key, gapBefore }) => {
        const item = items[index];
        if (!item) return null;
        return (
          <Box
            component="li"
            key={key}
            ref={measureRow}
            data-index={index}
            aria-setsize={setSize}
            aria-posinset={index + 1}
            onFocus={() => onRowFocus(item.id)}
            sx={{ pb: 1 }}
            style={{ marginTop: gapBefore }}
          >
            <Card variant="outlined">
              <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
                <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                  <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                    <CaseName item={item} onOpen={onOpen} />
                  </Box>
                  {canFavorite ? <FavoriteButton item={item} onToggle={onToggleFavorite} /> : null}
                </Stack>
                {columns.map((column) => (
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
                    <UpdateCell item={item} choice={choices.get(item.id)} onChoose={onChoose} />
                  </Stack>
                )}
              </CardContent>
            </Card>
          </Box>
        );
      })}
    </Box>
  );
}
