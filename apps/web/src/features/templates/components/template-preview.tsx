import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TemplateCase } from '@patientsim/domain/cases/template-case.schemas';
import type { ReactNode } from 'react';
import { DispatchTexts } from '../../../components/dispatch-texts';
import { type TemplateAction, actionTexts, appLabActionFor, publishActionFor, tagsText } from './template-actions';

export type TemplatePreviewProps = {
  template: TemplateCase;
  productLabel: string;
  showAppLab: boolean;
  isBusy: boolean;
  onAction: (action: TemplateAction) => void;
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="subtitle2" component="h4" sx={{ color: 'text.secondary' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Scene({ title, place }: { title: string; place: TemplateCase['_startLocation'] }) {
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4" sx={{ color: 'text.secondary' }}>
        {title}
      </Typography>
      {place?.picture ? (
        <Box
          component="img"
          src={place.picture.url}
          alt={`${title}: ${place.name.en}`}
          sx={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 1, display: 'block' }}
        />
      ) : null}
      <Typography variant="body2">{place?.name.en ?? 'None'}</Typography>
    </Box>
  );
}

/**
 * The preview of a template (spec section 2): name, warning and error counts, avatar, start and
 * end location pictures, tags, learning objectives and scenario information, with the actions.
 * The two texts follow the scenario library's preview: only those the case's author shows
 * (`displayed`), each cut at 20 words.
 */
export function TemplatePreview({ template, productLabel, showAppLab, isBusy, onAction }: TemplatePreviewProps) {
  const publish = publishActionFor(template);
  const appLab = appLabActionFor(template);
  return (
    <Paper variant="outlined" component="section" aria-label={`Preview of ${template.name}`} sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h3">
          {template.name}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Chip
            label={`${template.warningsCount} ${template.warningsCount === 1 ? 'warning' : 'warnings'}`}
            color={template.warningsCount > 0 ? 'warning' : 'default'}
            variant="outlined"
          />
          <Chip
            label={`${template.errorsCount} ${template.errorsCount === 1 ? 'error' : 'errors'}`}
            color={template.errorsCount > 0 ? 'error' : 'default'}
            variant="outlined"
          />
        </Stack>
        <Section title="Patient">
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Avatar
              src={template._avatar?.picture?.url}
              alt={template._avatar ? template._avatar.name.en : ''}
              sx={{ width: 56, height: 56 }}
            />
            <Typography>{template._avatar?.name.en ?? 'None'}</Typography>
          </Stack>
        </Section>
        <Stack direction="row" spacing={2}>
          <Scene title="Scene 1" place={template._startLocation} />
          <Scene title="Scene 2" place={template._endLocation} />
        </Stack>
        <Section title="Tags">
          <Typography variant="body2">{tagsText(template.tags)}</Typography>
        </Section>
        <DispatchTexts key={template.id} dispatch={template.dispatch} heading="h4" />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexWrap: 'wrap' }} useFlexGap>
          <Button variant="contained" disabled={isBusy} onClick={() => onAction(publish)}>
            {actionTexts(publish, template.name, productLabel).label}
          </Button>
          {showAppLab ? (
            <Button variant="outlined" disabled={isBusy} onClick={() => onAction(appLab)}>
              {actionTexts(appLab, template.name, productLabel).label}
            </Button>
          ) : null}
        </Stack>
      </Stack>
    </Paper>
  );
}
