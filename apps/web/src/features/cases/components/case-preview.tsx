import Close from '@mui/icons-material/Close';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CASE_TEXTS, caseUpdateLabel } from '@patientsim/domain/cases/case-list';
import type { CaseListItem } from '@patientsim/domain/cases/case-library.schemas';
import { useId } from 'react';
import { DispatchTexts } from '../../../components/dispatch-texts';

function Place({ label, place }: { label: string; place: CaseListItem['_startLocation'] }) {
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h3">
        {label}
      </Typography>
      {place?.picture?.url ? (
        <Box
          component="img"
          src={place.picture.url}
          alt={place.name.en}
          sx={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 1, bgcolor: 'action.hover' }}
        />
      ) : null}
      <Typography variant="body2">{place?.name.en ?? '—'}</Typography>
    </Box>
  );
}

/**
 * The preview side panel of a case (spec section 2): name, warning and error counts, avatar,
 * start and end location pictures, tags (or 'No tags'), learning objectives, scenario information
 * and the update status (decision 12). The two texts are the case's dispatch texts its author
 * shows (`displayed`), compact: cut at 20 words (spec section 9) with Show more. Full screen on
 * phones; Esc closes it and focus returns to the row that opened it.
 */
export function CasePreview({ item, onClose }: { item: CaseListItem | null; onClose: () => void }) {
  const titleId = useId();
  const tags = (item?.tags ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  return (
    <Drawer
      anchor="right"
      open={item !== null}
      onClose={onClose}
      // A modal panel: above the app bar (which sits above the side nav), or the bar hides its title and Close.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: { xs: '100%', sm: 420 }, p: 3 } } }}
    >
      {item ? (
        <>
          <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1 }}>
            <Typography id={titleId} variant="h2" component="h2" sx={{ flexGrow: 1, fontSize: '1.4rem' }}>
              {item.name}
            </Typography>
            <IconButton aria-label="Close preview" onClick={onClose}>
              <Close />
            </IconButton>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
            <Chip size="small" label={`${item.warningsCount} ${item.warningsCount === 1 ? 'warning' : 'warnings'}`} />
            <Chip
              size="small"
              color={item.errorsCount > 0 ? 'error' : 'default'}
              label={`${item.errorsCount} ${item.errorsCount === 1 ? 'error' : 'errors'}`}
            />
            <Chip size="small" variant="outlined" label={`Update: ${caseUpdateLabel(item)}`} />
          </Stack>
          <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
            <Avatar src={item._avatar?.picture?.url ?? ''} alt="" sx={{ width: 56, height: 56 }} />
            <Typography>{item._avatar?.name.en ?? 'No patient'}</Typography>
          </Stack>
          <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
            <Place label="Scene 1" place={item._startLocation} />
            <Place label="Scene 2" place={item._endLocation} />
          </Stack>
          <Box sx={{ mt: 2 }}>
            <Typography variant="subtitle2" component="h3">
              Tags
            </Typography>
            {tags.length > 0 ? (
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
                {tags.map((tag) => (
                  <Chip key={tag} size="small" label={tag} />
                ))}
              </Stack>
            ) : (
              <Typography variant="body2">{CASE_TEXTS.noTags}</Typography>
            )}
          </Box>
          <Stack spacing={2} sx={{ mt: 2 }}>
            <DispatchTexts key={item.id} dispatch={item.dispatch} heading="h3" />
          </Stack>
        </>
      ) : null}
    </Drawer>
  );
}
