import Avatar from '@mui/material/Avatar';
import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CASE_COLUMNS } from '@patientsim/domain/cases/case-list';
import type { TemplateCase } from '@patientsim/domain/cases/template-case.schemas';
import { type TemplateAction, appLabActionFor, publishActionFor } from './template-actions';

const columnLabel = (key: 'published' | 'applab') => CASE_COLUMNS.find((column) => column.key === key)?.label ?? key;
const SKELETON_ROWS = 5;

export type TemplateTableProps = {
  label: string;
  cases: readonly TemplateCase[];
  selectedId: string | null;
  showAppLab: boolean;
  isLoading: boolean;
  isBusy: boolean;
  onSelect: (id: string) => void;
  onAction: (template: TemplateCase, action: TemplateAction) => void;
};

/**
 * A template library as a table (spec section 2): scenario name, avatar, published and, where the
 * product type has it, App Lab. No search, filters or column editor. The name selects the case for
 * the preview; the checkboxes ask for confirmation before they change anything.
 */
export function TemplateTable({
  label,
  cases,
  selectedId,
  showAppLab,
  isLoading,
  isBusy,
  onSelect,
  onAction,
}: TemplateTableProps) {
  const columnCount = showAppLab ? 4 : 3;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={label} aria-busy={isLoading}>
        <TableHead>
          <TableRow>
            <TableCell>Scenario Name</TableCell>
            <TableCell>Avatar</TableCell>
            <TableCell padding="checkbox">{columnLabel('published')}</TableCell>
            {showAppLab ? <TableCell padding="checkbox">{columnLabel('applab')}</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {isLoading
            ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  {Array.from({ length: columnCount }, (_, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                    <TableCell key={cell}>
                      <Skeleton variant="text" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : null}
          {!isLoading && cases.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columnCount}>
                <Typography sx={{ py: 2 }}>No scenarios in this template library.</Typography>
              </TableCell>
            </TableRow>
          ) : null}
          {cases.map((template) => {
            const isSelected = template.id === selectedId;
            return (
              <TableRow
                key={template.id}
                hover
                selected={isSelected}
                onClick={() => onSelect(template.id)}
                sx={{ cursor: 'pointer' }}
              >
                <TableCell>
                  <Link
                    component="button"
                    type="button"
                    underline="hover"
                    aria-current={isSelected ? 'true' : undefined}
                    onClick={(event) => {
                      event.stopPropagation();
                      onSelect(template.id);
                    }}
                    sx={{ textAlign: 'left', fontWeight: isSelected ? 600 : 400 }}
                  >
                    {template.name}
                  </Link>
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Avatar src={template._avatar?.picture?.url} alt="" sx={{ width: 32, height: 32 }} />
                    <Typography variant="body2">{template._avatar?.name.en ?? ''}</Typography>
                  </Stack>
                </TableCell>
                <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                  <Checkbox
                    checked={template.published}
                    disabled={isBusy}
                    onChange={() => onAction(template, publishActionFor(template))}
                    slotProps={{ input: { 'aria-label': `${columnLabel('published')}: ${template.name}` } }}
                  />
                </TableCell>
                {showAppLab ? (
                  <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                    <Checkbox
                      checked={template.applab}
                      disabled={isBusy}
                      onChange={() => onAction(template, appLabActionFor(template))}
                      slotProps={{ input: { 'aria-label': `${columnLabel('applab')}: ${template.name}` } }}
                    />
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
