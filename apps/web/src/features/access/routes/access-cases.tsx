import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import {
  CASE_COPY_STEPS,
  CaseCopyBodySchema,
  CaseDiffBodySchema,
  type CaseCopyBody,
  type CaseCopyEvent,
  type CaseDiffResult,
  type CaseEnvironmentName,
  type CaseEnvironmentStatus,
  type FoundCase,
  type FoundOrganisation,
} from '@patientsim/domain/cases/case-copy.schemas';
import { type Ref, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { NativeSelectInputField } from '../../../components/native-select-input-field';
import { ScreenHeader } from '../../../components/screen-header';
import { SearchAutocomplete } from '../../../components/search-autocomplete';
import { useCaseDiff, useCaseEnvironments, useCopyCases, useEnvironmentOrganisationSearch } from '../api/case-tool';
import { CaseDiff } from '../components/case-diff';
import { CasePicker, CasesPicker } from '../components/case-picker';

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : CASE_TEXTS.unknownError);

type Environments = CaseEnvironmentStatus[];

/** The one line that says how to make an environment reachable from this deployment. */
export function howToConfigure(name: CaseEnvironmentName): string {
  return `Not configured: add "${name}": {"url": "https://…", "accessCode": "…"} to CASE_ENVIRONMENTS on this deployment.`;
}

/** The four environments, each with its state: this deployment, configured, or how to configure it. */
function EnvironmentList({ environments }: { environments: Environments }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="case-environments-title" sx={{ p: 2 }}>
      <Typography id="case-environments-title" variant="h2" sx={{ fontSize: 20, mb: 1 }}>
        Environments
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
        {environments.map((environment) => (
          <Box component="li" key={environment.name} sx={{ py: 0.5, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Typography component="span" sx={{ fontWeight: 600, minWidth: 64 }}>
              {environment.name}
            </Typography>
            <Typography component="span" variant="body2" sx={{ color: 'text.secondary', alignSelf: 'center' }}>
              {environment.current ? 'This deployment' : environment.configured ? 'Configured' : howToConfigure(environment.name)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

type EnvironmentChoice = CaseEnvironmentName | '';

function EnvironmentSelect({
  name,
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  environments,
  disabled,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: EnvironmentChoice) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLSelectElement>;
  error?: { message?: string } | undefined;
  environments: Environments;
  disabled?: boolean;
}) {
  return (
    <NativeSelectInputField
      name={name}
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as EnvironmentChoice)}
      onBlur={onBlur}
      inputRef={inputRef}
      error={error}
      required
      disabled={disabled ?? false}
    >
      <option value="">Choose an environment</option>
      {environments.map((environment) => (
        <option key={environment.name} value={environment.name} disabled={!environment.configured}>
          {environment.current
            ? `${environment.name} (this deployment)`
            : environment.configured
              ? environment.name
              : `${environment.name} (not configured)`}
        </option>
      ))}
    </NativeSelectInputField>
  );
}

/** A comparison's answer: the spec's text, and the two documents line by line when they differ. */
function DiffResult({ result, leftLabel, rightLabel }: { result: CaseDiffResult; leftLabel: string; rightLabel: string }) {
  return (
    <>
      <Alert severity={result.same ? 'success' : 'warning'}>{result.message}</Alert>
      {result.same ? null : (
        <Box sx={{ mt: 2 }}>
          <CaseDiff
            left={result.a}
            right={result.b}
            leftMedia={result.mediaA}
            rightMedia={result.mediaB}
            leftLabel={leftLabel}
            rightLabel={rightLabel}
          />
        </Box>
      )}
    </>
  );
}

type CopyOutcome = Extract<CaseCopyEvent, { type: 'done' | 'error' }>;
/** Where one case of a copy stands: steps done, then how it ended. */
type CaseState = {
  steps: number;
  ended?: { as: 'copied'; targetId: string } | { as: 'failed'; reason: string } | { as: 'undone' } | { as: 'not copied' };
};

/** The words for a case's state: the step it reached, or how it ended (a failed case says why). */
export function caseStateText(state: CaseState): string {
  switch (state.ended?.as) {
    case 'copied':
      return `copied as ${state.ended.targetId}`;
    case 'failed':
      return `failed: ${state.ended.reason}`;
    case 'undone':
      return 'not copied: removed again when the copy failed';
    case 'not copied':
      return 'not copied';
    default:
      return CASE_COPY_STEPS[state.steps - 1] ?? 'waiting';
  }
}

/** Every case's end, from the copy's last line. */
function endStates(states: Record<string, CaseState>, outcome: CopyOutcome): Record<string, CaseState> {
  const next: Record<string, CaseState> = {};
  for (const [caseId, state] of Object.entries(states)) {
    if (outcome.type === 'done') {
      const created = outcome.created.find((item) => item.sourceId === caseId);
      next[caseId] = created ? { ...state, ended: { as: 'copied', targetId: created.targetId } } : state;
    } else if (caseId === outcome.caseId) {
      next[caseId] = { ...state, ended: { as: 'failed', reason: outcome.message } };
    } else {
      // A case restored in the target before the failure was removed with the rest.
      next[caseId] = { ...state, ended: state.steps >= 2 ? { as: 'undone' } : { as: 'not copied' } };
    }
  }
  return next;
}

/** One copied case: source and new id, and a one-click compare of the two. */
function CopiedCase({
  found,
  targetId,
  source,
  target,
}: {
  found: FoundCase;
  targetId: string;
  source: CaseEnvironmentName;
  target: CaseEnvironmentName;
}) {
  const diff = useCaseDiff();
  return (
    <Box component="li" sx={{ py: 1 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2">
          {found.name} ({source} {found.id}) → new case id <strong>{targetId}</strong> in {target}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          aria-label={`Compare ${found.name} with its copy`}
          disabled={diff.isPending}
          onClick={() => diff.mutate({ envA: source, idA: found.id, envB: target, idB: targetId })}
          startIcon={diff.isPending ? <CircularProgress size={14} color="inherit" aria-hidden /> : null}
        >
          Compare
        </Button>
      </Stack>
      <Box sx={{ mt: 1 }} aria-live="polite">
        {diff.isError ? <Alert severity="error">{messageOf(diff.error)}</Alert> : null}
        {diff.data ? <DiffResult result={diff.data} leftLabel={`Source (${source})`} rightLabel={`Copy (${target})`} /> : null}
      </Box>
    </Box>
  );
}

const CopyFormSchema = z
  .object({
    source: z.string(),
    target: z.string(),
    cases: z.array(z.custom<FoundCase>()),
    organisation: z.custom<FoundOrganisation>().nullable(),
    ignoreDifferences: z.boolean(),
  })
  // The server's rule for the list of cases, reported under the cases picker.
  .superRefine(({ cases }, context) => {
    const checked = CaseCopyBodySchema.shape.caseIds.safeParse(cases.map((found) => found.id));
    for (const issue of checked.error?.issues ?? [])
      context.addIssue({ code: 'custom', path: ['cases'], message: issue.message });
  })
  // Typed as the body before it is checked: the environments are still plain text here.
  .transform(
    ({
      source,
      target,
      cases,
      organisation,
      ignoreDifferences,
    }): Omit<CaseCopyBody, 'source' | 'target'> & {
      source: string;
      target: string;
    } => ({
      source,
      target,
      caseIds: cases.map((found) => found.id),
      targetOrg: organisation?.id ?? '',
      ignoreDifferences,
    }),
  )
  .pipe(CaseCopyBodySchema);
type CopyFormInput = z.input<typeof CopyFormSchema>;
type CopyFormValues = z.output<typeof CopyFormSchema>;

/** 'Copy a case between organizations' (spec sections 2 and 4). */
function CopySection({ environments }: { environments: Environments }) {
  const { control, handleSubmit, setValue, formState } = useForm<CopyFormInput, unknown, CopyFormValues>({
    resolver: zodResolver(CopyFormSchema),
    defaultValues: { source: '', target: '', cases: [], organisation: null, ignoreDifferences: false },
  });
  const [source, target, picked, organisation] = useWatch({ control, name: ['source', 'target', 'cases', 'organisation'] });
  const [orgTerm, setOrgTerm] = useState('');
  // Where each case of the last copy stands, from the lines the server streams.
  const [states, setStates] = useState<Record<string, CaseState>>({});
  const [copied, setCopied] = useState<{ source: CaseEnvironmentName; target: CaseEnvironmentName; cases: FoundCase[] } | null>(
    null,
  );
  const copy = useCopyCases((event) => {
    if (event.type !== 'progress') return;
    const steps = CASE_COPY_STEPS.indexOf(event.step) + 1;
    setStates((current) => ({ ...current, [event.caseId]: { steps } }));
  });
  const organisations = useEnvironmentOrganisationSearch(target as EnvironmentChoice, orgTerm);
  const running = copy.isPending;
  const outcome = copy.data ?? null;
  const failure = copy.isError ? messageOf(copy.error) : null;
  const canCopy =
    source !== '' && target !== '' && picked.length > 0 && !formState.errors.cases && organisation !== null && !running;

  const submit = (body: CopyFormValues) => {
    const cases = picked;
    setCopied({ source: body.source, target: body.target, cases });
    setStates(Object.fromEntries(cases.map((found) => [found.id, { steps: 0 }])));
    copy.mutate(body, {
      onSuccess: (result) => setStates((current) => endStates(current, result)),
      // Refused before anything started: no case has a state to show.
      onError: () => setStates({}),
    });
  };

  const mismatch = outcome?.type === 'error' && outcome.code === 'CASE_JSON_NOT_EQUAL' ? outcome : null;
  const nameOf = (caseId: string) => copied?.cases.find((found) => found.id === caseId)?.name ?? caseId;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="copy-cases-title" sx={{ p: 2 }}>
      <Typography id="copy-cases-title" variant="h2" sx={{ fontSize: 20, mb: 2 }}>
        Copy a case between organizations
      </Typography>
      <Stack component="form" noValidate spacing={2} sx={{ maxWidth: 640 }} onSubmit={handleSubmit(submit)}>
        <Controller
          control={control}
          name="source"
          render={({ field, fieldState }) => (
            <EnvironmentSelect
              name={field.name}
              label="Source environment"
              value={field.value}
              onChange={(next) => {
                field.onChange(next);
                // Cases belong to one environment: a new one starts the list over.
                setValue('cases', []);
              }}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error}
              environments={environments}
              disabled={running}
            />
          )}
        />
        <Controller
          control={control}
          name="cases"
          render={({ field, fieldState }) => (
            <CasesPicker
              env={source as EnvironmentChoice}
              label="Cases to copy"
              value={field.value}
              onChange={field.onChange}
              disabled={running || source === ''}
              error={fieldState.error?.message ?? null}
            />
          )}
        />
        <Controller
          control={control}
          name="target"
          render={({ field, fieldState }) => (
            <EnvironmentSelect
              name={field.name}
              label="Target environment"
              value={field.value}
              onChange={(next) => {
                field.onChange(next);
                // Organisations belong to one environment too.
                setValue('organisation', null);
              }}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error}
              environments={environments}
              disabled={running}
            />
          )}
        />
        <Controller
          control={control}
          name="organisation"
          render={({ field }) => (
            <SearchAutocomplete
              // A new environment starts a new search.
              key={target}
              label="Target organization"
              value={field.value}
              onChange={field.onChange}
              options={organisations.data ?? []}
              isLoading={organisations.isFetching}
              onSearch={setOrgTerm}
              getOptionLabel={(found) => found.name}
              isOptionEqualToValue={(option, selected) => option.id === selected.id}
              noResultsText={organisations.isError ? organisations.error.message : 'No organizations to display'}
              promptText={`Type a name to search${target === '' ? '' : ` on ${target}`}`}
              disabled={running || target === ''}
            />
          )}
        />
        <Controller
          control={control}
          name="ignoreDifferences"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Checkbox
                  name={field.name}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                  disabled={running}
                />
              }
              label="Ignore differences"
            />
          )}
        />
        <div>
          <Button
            type="submit"
            variant="contained"
            disabled={!canCopy}
            startIcon={running ? <CircularProgress size={16} color="inherit" aria-hidden /> : null}
          >
            {running ? 'Copying' : 'Copy'}
          </Button>
        </div>
      </Stack>

      {Object.keys(states).length > 0 ? (
        <Stack spacing={1} sx={{ mt: 2, maxWidth: 640 }} aria-live="polite">
          {Object.entries(states).map(([caseId, state]) => {
            const value = Math.round((state.steps / CASE_COPY_STEPS.length) * 100);
            return (
              <Box key={caseId}>
                <Typography
                  variant="body2"
                  id={`copy-progress-${caseId}`}
                  sx={state.ended?.as === 'failed' ? { color: 'error.main' } : undefined}
                >
                  {nameOf(caseId)}: {caseStateText(state)}
                </Typography>
                <LinearProgress
                  variant="determinate"
                  value={value}
                  color={state.ended?.as === 'failed' ? 'error' : 'primary'}
                  aria-labelledby={`copy-progress-${caseId}`}
                />
              </Box>
            );
          })}
        </Stack>
      ) : null}

      <Box sx={{ mt: 2 }} aria-live="polite">
        {outcome?.type === 'done' ? <Alert severity="success">{outcome.message}</Alert> : null}
        {outcome?.type === 'error' ? <Alert severity="error">{outcome.message}</Alert> : null}
        {failure ? <Alert severity="error">{failure}</Alert> : null}
      </Box>
      {outcome?.type === 'done' && copied && outcome.created.length > 0 ? (
        <Box component="ul" aria-label="Copied cases" sx={{ mt: 1, pl: 0, listStyle: 'none' }}>
          {outcome.created.map((item) => (
            <CopiedCase
              key={item.targetId}
              found={
                copied.cases.find((found) => found.id === item.sourceId) ?? {
                  id: item.sourceId,
                  name: item.sourceId,
                  organisation: null,
                }
              }
              targetId={item.targetId}
              source={copied.source}
              target={copied.target}
            />
          ))}
        </Box>
      ) : null}
      {mismatch?.details ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            Case {nameOf(mismatch.details.caseId)}. Tick 'Ignore differences' to copy the cases anyway.
          </Typography>
          <CaseDiff
            left={mismatch.details.source}
            right={mismatch.details.target}
            leftMedia={mismatch.details.sourceMedia}
            rightMedia={mismatch.details.targetMedia}
            leftLabel={`Source (${copied?.source ?? source})`}
            rightLabel={`Target (${copied?.target ?? target})`}
          />
        </Box>
      ) : null}
    </Paper>
  );
}

const DiffFormSchema = z
  .object({
    envA: z.string(),
    caseA: z.custom<FoundCase>().nullable(),
    envB: z.string(),
    caseB: z.custom<FoundCase>().nullable(),
  })
  .transform(({ envA, caseA, envB, caseB }) => ({ envA, idA: caseA?.id ?? '', envB, idB: caseB?.id ?? '' }))
  .pipe(CaseDiffBodySchema);
type DiffFormInput = z.input<typeof DiffFormSchema>;
type DiffFormValues = z.output<typeof DiffFormSchema>;

/** 'Show difference between two cases' (spec sections 2 and 4). */
function DiffSection({ environments }: { environments: Environments }) {
  const { control, handleSubmit, setValue } = useForm<DiffFormInput, unknown, DiffFormValues>({
    resolver: zodResolver(DiffFormSchema),
    defaultValues: { envA: '', caseA: null, envB: '', caseB: null },
  });
  const [envA, caseA, envB, caseB] = useWatch({ control, name: ['envA', 'caseA', 'envB', 'caseB'] });
  const diff = useCaseDiff();
  const canCompare = envA !== '' && envB !== '' && caseA !== null && caseB !== null && !diff.isPending;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="diff-cases-title" sx={{ p: 2 }}>
      <Typography id="diff-cases-title" variant="h2" sx={{ fontSize: 20, mb: 2 }}>
        Show difference between two cases
      </Typography>
      <Stack component="form" noValidate spacing={2} sx={{ maxWidth: 800 }} onSubmit={handleSubmit((body) => diff.mutate(body))}>
        {(
          [
            { env: 'envA', found: 'caseA', envLabel: 'First environment', caseLabel: 'First case' },
            { env: 'envB', found: 'caseB', envLabel: 'Second environment', caseLabel: 'Second case' },
          ] as const
        ).map((side) => (
          <Stack key={side.env} direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Box sx={{ minWidth: 200 }}>
              <Controller
                control={control}
                name={side.env}
                render={({ field, fieldState }) => (
                  <EnvironmentSelect
                    name={field.name}
                    label={side.envLabel}
                    value={field.value}
                    onChange={(next) => {
                      field.onChange(next);
                      setValue(side.found, null);
                    }}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    error={fieldState.error}
                    environments={environments}
                  />
                )}
              />
            </Box>
            <Box sx={{ flex: 1 }}>
              <Controller
                control={control}
                name={side.found}
                render={({ field }) => (
                  <CasePicker
                    key={side.env === 'envA' ? envA : envB}
                    env={(side.env === 'envA' ? envA : envB) as EnvironmentChoice}
                    label={side.caseLabel}
                    value={field.value}
                    onChange={field.onChange}
                  />
                )}
              />
            </Box>
          </Stack>
        ))}
        <div>
          <Button
            type="submit"
            variant="contained"
            disabled={!canCompare}
            startIcon={diff.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : null}
          >
            Compare
          </Button>
        </div>
      </Stack>
      <Box sx={{ mt: 2 }} aria-live="polite">
        {diff.isError ? <Alert severity="error">{messageOf(diff.error)}</Alert> : null}
        {diff.data ? <DiffResult result={diff.data} leftLabel="First case" rightLabel="Second case" /> : null}
      </Box>
    </Paper>
  );
}

/** /access/cases: the Cases tool (super admins). */
export function AccessCasesRoute() {
  const environments = useCaseEnvironments();
  const list = environments.data?.environments ?? [];
  return (
    <>
      <ScreenHeader title="Cases" />
      {environments.isLoading ? <CircularProgress aria-label="Loading the environments" /> : null}
      {environments.isError ? <Alert severity="error">{messageOf(environments.error)}</Alert> : null}
      {environments.isSuccess ? (
        <Stack spacing={3}>
          <CopySection environments={list} />
          <DiffSection environments={list} />
          <EnvironmentList environments={list} />
        </Stack>
      ) : null}
    </>
  );
}
