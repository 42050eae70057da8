import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import type { DataTableColumn } from './data-table';
import { PHONE_TARGET_SIZE } from './use-is-phone';

export type RowCardsProps<Row> = {
  /** Names the list for assistive technology, as the table's label names the table. */
  label: string;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  getRowKey: (row: Row) => string;
  isBusy?: boolean;
};

/**
 * A table's rows as a list of cards, for phones (UX guide: card lists at 390 px), from the table's
 * own column definitions: the first column is the card's title, the row's actions sit beside it
 * (a finger-sized target, never off-screen), and every other column is a labelled line.
 */
export function RowCards<Row>({ label, columns, rows, getRowKey, isBusy = false }: RowCardsProps<Row>) {
  const [title, ...rest] = columns;
  const actions = rest.filter((column) => column.isRowActions);
  const lines = rest.filter((column) => !column.isRowActions);
  return (
    <Box
      component="ul"
      aria-label={label}
      aria-busy={isBusy}
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      {rows.map((row) => (
        <li key={getRowKey(row)}>
          <Card variant="outlined">
            <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, '&:last-child': { pb: 2 } }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 44 }}>
                {/* Names and addresses can be one long word: they wrap rather than widen the card. */}
                <Typography component="div" sx={{ flexGrow: 1, minWidth: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {title?.render(row)}
                </Typography>
                {actions.map((column) => (
                  <Box key={column.key} sx={{ flexShrink: 0, '& .MuiButtonBase-root': PHONE_TARGET_SIZE }}>
                    {column.render(row)}
                  </Box>
                ))}
              </Box>
              {lines.length > 0 ? (
                <Box
                  component="dl"
                  sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5, m: 0 }}
                >
                  {lines.map((column) => (
                    <Fragment key={column.key}>
                      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                        {column.header}
                      </Typography>
                      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                        {column.render(row)}
                      </Typography>
                    </Fragment>
                  ))}
                </Box>
              ) : null}
            </CardContent>
          </Card>
        </li>
      ))}
    </Box>
  );
}
