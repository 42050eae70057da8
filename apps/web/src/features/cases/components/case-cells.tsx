import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  CASE_TEXTS,
  type CaseColumn,
  type CaseColumnKey,
  type CaseUpdateChoice,
  caseDate,
  caseUpdateLabel,
  caseUpdaterText,
  isCaseUpdatePending,
} from '@patientsim/domain/cases/case-list';
import type { CaseListItem } from '@patientsim/domain/cases/case-library.schemas';
import type { ReactNode } from 'react';

/** The parts of a case's row (the table) or card (phones) in the scenario library. */

/** The text or content of one chosen column of a case (spec section 2, scenario table columns). */
export function cellOf(column: CaseColumn, item: CaseListItem): ReactNode {
  switch (column.key) {
    case 'patient':
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar src={item._avatar?.picture?.url ?? ''} alt="" sx={{ width: 32, height: 32 }} />
          {/* A long patient name wraps between words rather than being cut to a few letters. */}
          <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'break-word' }}>
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

/** Dates line up in tabular figures. */
export const DATE_COLUMNS: ReadonlySet<CaseColumnKey> = new Set(['createdAt', 'lastPlayed', 'lastAccessed']);

/** The favourite star: pressed state at once (the list's cache), rolled back if the save fails. */
export function FavoriteButton({ item, onToggle }: { item: CaseListItem; onToggle: (item: CaseListItem) => void }) {
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

/** The case's name, opening its preview, with the needs-update mark of a case with errors. */
export function CaseName({ item, onOpen }: { item: CaseListItem; onOpen: (item: CaseListItem) => void }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Link
        component="button"
        type="button"
        variant="body2"
        onClick={() => onOpen(item)}
        // A long name wraps between words rather than being cut.
        sx={{ textAlign: 'left', minWidth: 0, overflowWrap: 'break-word' }}
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

/**
 * The Update column: Y/N while the case offers the choice to this user (they may update it), else
 * its update status (decision 12).
 */
export function UpdateCell({
  item,
  choice,
  onChoose,
}: {
  item: CaseListItem;
  choice: CaseUpdateChoice | undefined;
  onChoose: (id: string, choice: CaseUpdateChoice | null) => void;
}) {
  if (!item.canUpdate) {
    // A reader who may not edit the case sees its status; the server would refuse their decision.
    return (
      <Tooltip title={caseUpdaterText(item.author?.name)} describeChild>
        <Box component="span" tabIndex={0} sx={{ cursor: 'help' }}>
          {caseUpdateLabel(item)}
        </Box>
      </Tooltip>
    );
  }
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
