import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { NOTIFICATION_BODY_MAX, NOTIFICATION_HEADER_MAX } from '@patientsim/domain/common/constants';
import {
  NOTIFICATION_COLORS,
  type NewNotificationBody,
  NewNotificationBodySchema,
} from '@patientsim/domain/notifications/notification.schemas';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { PopupSlide, type SlideContent } from './popup-slide';
import { errorMessage } from '../../../lib/api-client';
import { MIN_TEXT_CONTRAST, formatContrast, headerContrast } from '../../../lib/notification-colors';
import { useSendNotification } from '../api/send-notification';
import { TargetPicker } from './target-picker';
import type { LabelledTarget } from './target-picker-state';

type NotificationColor = (typeof NOTIFICATION_COLORS)[number];

/** The palette's colours by name (decision 13: a labelled radio group). */
export const COLOR_NAMES: Record<NotificationColor, string> = {
  red: 'Red',
  '#ff8000': 'Orange',
  '#ffb300': 'Amber',
  '#018786': 'Teal',
  '#50ccd5': 'Turquoise',
  '#5450d5': 'Indigo',
  '#b329e3': 'Purple',
  '#d550c3': 'Pink',
};

/** The form's fields; the action is a link, a case, or the popup's own buttons (decision 13). */
const DraftSchema = z.object({
  title: z.string(),
  message: z.string(),
  color: z.enum(NOTIFICATION_COLORS),
  action: z.enum(['link', 'case', 'default']),
  link: z.string(),
  caseId: z.string(),
  targets: z.array(z.custom<LabelledTarget>()),
});
type Draft = z.infer<typeof DraftSchema>;

const EMPTY_DRAFT: Draft = { title: '', message: '', color: 'red', action: 'default', link: '', caseId: '', targets: [] };

/** The request body of a draft: a link or a case becomes a 'Go to' action (spec section 3). */
export function notificationBody(draft: Draft): NewNotificationBody {
  const actions: NewNotificationBody['actions'] =
    draft.action === 'link'
      ? [{ label: 'Go to', type: 'URL', metadata: { url: draft.link.trim() } }]
      : draft.action === 'case'
        ? [{ label: 'Go to', type: 'CASE_LINK', metadata: { caseId: draft.caseId.trim() } }]
        : [];
  return {
    type: 'POPUP_MESSAGE',
    title: draft.title,
    message: draft.message,
    color: draft.color,
    actions,
    targets: draft.targets.map(({ principalType, principalId }) => ({ principalType, principalId })),
  };
}

/** The popup slide a draft becomes: what its targets will see (empty fields show what goes there). */
export function previewSlide(draft: Draft): SlideContent {
  return {
    _id: 'preview',
    title: draft.title.trim() === '' ? 'Header' : draft.title,
    message: draft.message.trim() === '' ? 'Body' : draft.message,
    color: draft.color,
    actions: notificationBody(draft).actions ?? [],
    media: null,
    animation: null,
  };
}

/**
 * What the sender needs to know of a colour on the popup's header, computed from the colour and
 * the header's background: its contrast there, and a warning when it falls below 4.5:1.
 */
export function headerContrastNote(color: NotificationColor): { isWarning: boolean; text: string } {
  const name = COLOR_NAMES[color];
  const header = headerContrast(color);
  if (!header) return { isWarning: true, text: `${name} cannot be shown on the popup header.` };
  if (header.contrastOnDark >= MIN_TEXT_CONTRAST) {
    return { isWarning: false, text: `${name} on the black popup header: ${formatContrast(header.contrastOnDark)}.` };
  }
  const onDark = `${name} reaches only ${formatContrast(header.contrastOnDark)} on the black popup header, below the ${formatContrast(MIN_TEXT_CONTRAST)} text needs.`;
  return {
    isWarning: true,
    text:
      header.contrast >= MIN_TEXT_CONTRAST
        ? `${onDark} The popup shows this header on white instead (${formatContrast(header.contrast)}).`
        : `${onDark} The header will be hard to read: choose another colour.`,
  };
}

/**
 * A draft becomes the request body and is checked with the server's NewNotificationBodySchema; a bad
 * link or case ID is reported on its own field first, in words that say what to enter.
 */
const NotificationFormSchema = DraftSchema.superRefine((draft, context) => {
  if (NewNotificationBodySchema.shape.actions.safeParse(notificationBody(draft).actions).success) return;
  if (draft.action === 'link') {
    context.addIssue({ code: 'custom', path: ['link'], message: 'Enter a path of this site or an http(s) address' });
  } else {
    context.addIssue({ code: 'custom', path: ['caseId'], message: 'Enter a case ID (letters, digits, - and _)' });
  }
})
  .transform(notificationBody)
  .pipe(NewNotificationBodySchema);
type NotificationFormValues = z.output<typeof NotificationFormSchema>;

/**
 * New Notification (spec sections 2 and 4): header, body, header colour, the action, the target
 * picker and its chips; Send only with header, body and a target ('Sending' while it goes), then
 * 'Notification Sent!' and an empty form.
 */
export function NotificationComposer() {
  const { control, handleSubmit, reset, setValue, clearErrors, formState } = useForm<Draft, unknown, NotificationFormValues>({
    resolver: zodResolver(NotificationFormSchema),
    defaultValues: EMPTY_DRAFT,
  });
  const [title, message, color, action, link, caseId, targets] = useWatch({
    control,
    name: ['title', 'message', 'color', 'action', 'link', 'caseId', 'targets'],
  });
  const draft: Draft = { title, message, color, action, link, caseId, targets };
  const [isSentOpen, setIsSentOpen] = useState(false);
  // A new picker after each send: its selections start over with the form.
  const [formRound, setFormRound] = useState(0);
  const send = useSendNotification();
  const dialogTitleId = useId();
  const previewId = useId();
  const colorNote = headerContrastNote(color);
  const canSend = title.trim() !== '' && message.trim() !== '' && targets.length > 0 && !send.isPending;
  const targetsError = formState.errors.targets?.message ?? formState.errors.targets?.root?.message;

  const startOver = () => {
    reset(EMPTY_DRAFT);
    setFormRound((value) => value + 1);
  };

  const clear = () => {
    startOver();
    send.reset();
  };

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={`${dialogTitleId}-form`}
      onSubmit={handleSubmit((body) =>
        send.mutate(body, {
          onSuccess: () => {
            startOver();
            setIsSentOpen(true);
          },
        }),
      )}
    >
      <Typography id={`${dialogTitleId}-form`} component="h2" variant="h5" gutterBottom>
        New Notification
      </Typography>
      {/* Form left, live preview right; on a phone the preview follows the form. */}
      <Box
        sx={{
          display: 'grid',
          gap: 4,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(300px, 420px)' },
        }}
      >
        <Stack spacing={3} sx={{ maxWidth: 720, minWidth: 0 }}>
          <FormTextField
            control={control}
            name="title"
            label="Header"
            required
            margin="none"
            slotProps={{ htmlInput: { maxLength: NOTIFICATION_HEADER_MAX } }}
            hint={`${title.length}/${NOTIFICATION_HEADER_MAX}`}
            disabled={send.isPending}
          />
          <FormTextField
            control={control}
            name="message"
            label="Body"
            required
            margin="none"
            slotProps={{ input: { multiline: true, minRows: 4 }, htmlInput: { maxLength: NOTIFICATION_BODY_MAX } }}
            hint={`${message.length}/${NOTIFICATION_BODY_MAX}`}
            disabled={send.isPending}
          />
          <FormControl component="fieldset" disabled={send.isPending}>
            <FormLabel component="legend">Header text colour</FormLabel>
            <Controller
              control={control}
              name="color"
              render={({ field }) => (
                <RadioGroup row name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur}>
                  {NOTIFICATION_COLORS.map((option) => (
                    <FormControlLabel
                      key={option}
                      value={option}
                      control={<Radio />}
                      label={
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <Box
                            aria-hidden
                            sx={{
                              width: 16,
                              height: 16,
                              borderRadius: '50%',
                              bgcolor: option,
                              border: 1,
                              borderColor: 'grey.700',
                            }}
                          />
                          <span>{COLOR_NAMES[option]}</span>
                        </Stack>
                      }
                    />
                  ))}
                </RadioGroup>
              )}
            />
            <Box aria-live="polite">
              {colorNote.isWarning ? (
                <Alert severity="warning" sx={{ mt: 1 }}>
                  {colorNote.text}
                </Alert>
              ) : (
                <FormHelperText>{colorNote.text}</FormHelperText>
              )}
            </Box>
          </FormControl>
          <FormControl component="fieldset" disabled={send.isPending}>
            <FormLabel component="legend">Action</FormLabel>
            <Controller
              control={control}
              name="action"
              render={({ field }) => (
                <RadioGroup
                  row
                  name={field.name}
                  value={field.value}
                  onBlur={field.onBlur}
                  onChange={(event) => {
                    field.onChange(event);
                    // A link and a case exclude each other (spec section 4): choosing one clears the other.
                    setValue('link', '');
                    setValue('caseId', '');
                    clearErrors();
                  }}
                >
                  <FormControlLabel value="default" control={<Radio />} label="Default Template" />
                  <FormControlLabel value="link" control={<Radio />} label="Go To Link" />
                  <FormControlLabel value="case" control={<Radio />} label="Case" />
                </RadioGroup>
              )}
            />
          </FormControl>
          {action === 'link' ? (
            <FormTextField
              control={control}
              name="link"
              label="Link"
              margin="none"
              hint="The popup's 'Go to' button opens it: a path of this site or an http(s) address."
              disabled={send.isPending}
            />
          ) : null}
          {action === 'case' ? (
            <FormTextField
              control={control}
              name="caseId"
              label="Case ID"
              margin="none"
              hint="The popup's 'Go to' button opens this case in the scenario library."
              disabled={send.isPending}
            />
          ) : null}
          <Box>
            <Typography component="h3" variant="h6" gutterBottom>
              Target
            </Typography>
            <Controller
              control={control}
              name="targets"
              render={({ field }) => (
                <TargetPicker key={formRound} targets={field.value} onTargetsChange={field.onChange} disabled={send.isPending} />
              )}
            />
          </Box>
          <Typography aria-live="polite">
            {targets.length === 0
              ? 'Nobody will receive this notification yet.'
              : `This notification goes to: ${targets.map((target) => target.label).join('; ')}.`}
          </Typography>
          {targetsError ? <Alert severity="error">{targetsError}</Alert> : null}
          {send.isError ? <Alert severity="error">{errorMessage(send.error, 'Unknown error')}</Alert> : null}
          <Stack direction="row" spacing={2}>
            <Button variant="outlined" onClick={clear} disabled={send.isPending}>
              Clear
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={!canSend}
              startIcon={send.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : null}
            >
              {send.isPending ? 'Sending' : 'Send'}
            </Button>
          </Stack>
        </Stack>
        <Box component="section" aria-labelledby={previewId} sx={{ position: { md: 'sticky' }, top: { md: 88 } }}>
          <Typography id={previewId} component="h3" variant="h6">
            Preview
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            The popup as its targets will see it. Its buttons do nothing here.
          </Typography>
          <Paper elevation={8} sx={{ overflow: 'hidden' }}>
            <PopupSlide
              notification={previewSlide(draft)}
              index={0}
              count={1}
              titleComponent="h4"
              onAction={() => undefined}
              onRemindMe={() => undefined}
              onConfirm={() => undefined}
            />
          </Paper>
        </Box>
      </Box>
      <Dialog open={isSentOpen} onClose={() => setIsSentOpen(false)} aria-labelledby={dialogTitleId}>
        <DialogTitle id={dialogTitleId}>Notification Sent!</DialogTitle>
        <DialogActions>
          <Button onClick={() => setIsSentOpen(false)} autoFocus>
            OK
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
