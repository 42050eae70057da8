import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import {
  CASE_COPY_MAX,
  CASE_COPY_STEPS,
  type CaseCopyEvent,
  type CaseDiffResult,
  type CaseEnvironmentName,
} from '@patientsim/domain/cases/case-copy.schemas';
import type { Group } from '@patientsim/domain/groups/group.schemas';
import { useState } from 'react';
import { NativeSelectInputField } from '../../../components/native-select-input-field';
import { OrganisationSearchField } from '../../../components/organisation-search-field';
import { ScreenHeader } from '../../../components/screen-header';
import { useOrganisationSearch } from '../../../lib/organisation-search';
import { copyCases, useCaseDiff, useCaseEnvironments } from '../api/case-tool';
import { CaseDiff } from '../components/case-diff';

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : CASE_TEXTS.unknownError);

/** Case ids typed one per line, or separated by commas or spaces; each once. */
export function parseCaseIds(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

type Environments = Array<{ name: CaseEnvironmentName; current: boolean }>;

function EnvironmentSelect({
  name,
  label,
  value,
  onChange,
  environments,
  disabled,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: CaseEnvironmentName | '') => void;
  environments: Environments;
  disabled?: boolean;
}) {
  return (
    <NativeSelectInputField
      name={name}
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as CaseEnvironmentName | '')}
      required
      disabled={disabled ?? false}
    >
      <option value="">Choose an environment</option>
      {environments.map((environment) => (
        <option key={environment.name} value={environment.name}>
          {environment.current ? `${environment.name} (this deployment)` : environment.name}
        </option>
      ))}
    </NativeSelectInputField>
  );
}

type CaseProgress = Record<string, number>;
type CopyOutcome = Extract<CaseCopyEvent, { type: 'done' | 'error' }>;

/** 'Copy a case between organizations' (spec sections 2 and 4). */
function CopySection({ environments }: { environments: Environments }) {
  const [source, setSource] = useState<CaseEnvironmentName | ''>('');
  const [target, setTarget] = useState<CaseEnvironmentName | ''>('');
  const [idsText, setIdsText] = useState('');
  const [organisation, setOrganisation] = useState<Group | null>(null);
  const [orgTerm, setOrgTerm] = useState('');
  const [orgId, setOrgId] = useState('');
  const [ignoreDifferences, setIgnoreDifferences] = useState(false);
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<CaseProgress>({});
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const targetIsHere = environments.find((environment) => environment.name === target)?.current ?? false;
  const organisations = useOrganisationSearch(targetIsHere ? orgTerm : '');
  const ids = parseCaseIds(idsText);
  const targetOrg = targetIsHere ? (organisation?._id ?? '') : orgId.trim();
  const tooMany = ids.length > CASE_COPY_MAX;
  const canCopy = source !== '' && target !== '' && ids.length > 0 && !tooMany && targetOrg !== '' && !running;

  const submit = async () => {
    if (source === '' || target === '' || !canCopy) return;
    setRunning(true);
    setOutcome(null);
    setFailure(null);
    setProgress(Object.fromEntries(ids.map((id) => [id, 0])));
    try {
      const result = await copyCases({ source, target, caseIds: ids, targetOrg, ignoreDifferences }, (event) => {
        if (event.type === 'progress') {
          setProgress((current) => ({ ...current, [event.caseId]: CASE_COPY_STEPS.indexOf(event.step) + 1 }));
        }
      });
      setOutcome(result);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setRunning(false);
    }
  };

  const mismatch = outcome?.type === 'error' && outcome.code === 'CASE_JSON_NOT_EQUAL' ? outcome : null;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="copy-cases-title" sx={{ p: 2 }}>
      <Typography id="copy-cases-title" variant="h2" sx={{ fontSize: 20, mb: 2 }}>
        Copy a case between organizations
      </Typography>
      <Stack
        component="form"
        noValidate
        spacing={2}
        sx={{ maxWidth: 640 }}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <EnvironmentSelect
          name="source"
          label="Source environment"
          value={source}
          onChange={setSource}
          environments={environments}
          disabled={running}
        />
        <TextField
          label="Case ids"
          value={idsText}
          onChange={(event) => setIdsText(event.target.value)}
          multiline
          minRows={2}
          required
          disabled={running}
          error={tooMany}
          helperText={tooMany ? `At most ${CASE_COPY_MAX} cases at once` : 'One id a line, or separated by commas.'}
        />
        <EnvironmentSelect
          name="target"
          label="Target environment"
          value={target}
          onChange={(next) => {
            setTarget(next);
            setOrganisation(null);
          }}
          environments={environments}
          disabled={running}
        />
        {targetIsHere ? (
          <OrganisationSearchField
            label="Target organization"
            value={organisation}
            onChange={setOrganisation}
            options={organisations.data ?? []}
            isLoading={organisations.isFetching}
            onSearch={setOrgTerm}
            disabled={running}
          />
        ) : (
          <TextField
            label="Target organization id"
            value={orgId}
            onChange={(event) => setOrgId(event.target.value)}
            required
            disabled={running || target === ''}
            // A disabled field's grey helper text falls below 4.5:1: it shows once the field is usable.
            helperText={running || target === '' ? undefined : "The organization's id in the target environment."}
          />
        )}
        <FormControlLabel
          control={
            <Checkbox
              checked={ignoreDifferences}
              onChange={(event) => setIgnoreDifferences(event.target.checked)}
              disabled={running}
            />
          }
          label="Ignore differences"
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

      {Object.keys(progress).length > 0 ? (
        <Stack spacing={1} sx={{ mt: 2, maxWidth: 640 }} aria-live="polite">
          {Object.entries(progress).map(([caseId, steps]) => {
            const value = Math.round((steps / CASE_COPY_STEPS.length) * 100);
            return (
              <Box key={caseId}>
                <Typography variant="body2" id={`copy-progress-${caseId}`}>
                  {caseId}: {steps === CASE_COPY_STEPS.length ? 'copied' : (CASE_COPY_STEPS[steps - 1] ?? 'waiting')}
                </Typography>
                <LinearProgress variant="determinate" value={value} aria-labelledby={`copy-progress-${caseId}`} />
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
      {mismatch?.details ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            Case {mismatch.details.caseId}. Tick 'Ignore differences' to copy the cases anyway.
          </Typography>
          <CaseDiff
            left={mismatch.details.source}
            right={mismatch.details.target}
            leftLabel={`Source (${source})`}
            rightLabel={`Target (${target})`}
          />
        </Box>
      ) : null}
    </Paper>
  );
}

/** 'Show difference between two cases' (spec sections 2 and 4). */
function DiffSection({ environments }: { environments: Environments }) {
  const [envA, setEnvA] = useState<CaseEnvironmentName | ''>('');
  const [idA, setIdA] = useState('');
  const [envB, setEnvB] = useState<CaseEnvironmentName | ''>('');
  const [idB, setIdB] = useState('');
  const diff = useCaseDiff();
  const result: CaseDiffResult | undefined = diff.data;
  const canCompare = envA !== '' && envB !== '' && idA.trim() !== '' && idB.trim() !== '' && !diff.isPending;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="diff-cases-title" sx={{ p: 2 }}>
      <Typography id="diff-cases-title" variant="h2" sx={{ fontSize: 20, mb: 2 }}>
        Show difference between two cases
      </Typography>
      <Stack
        component="form"
        noValidate
        spacing={2}
        sx={{ maxWidth: 640 }}
        onSubmit={(event) => {
          event.preventDefault();
          if (envA === '' || envB === '' || !canCompare) return;
          diff.mutate({ envA, idA: idA.trim(), envB, idB: idB.trim() });
        }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <EnvironmentSelect name="envA" label="First environment" value={envA} onChange={setEnvA} environments={environments} />
          <TextField label="First case id" value={idA} onChange={(event) => setIdA(event.target.value)} required fullWidth />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <EnvironmentSelect name="envB" label="Second environment" value={envB} onChange={setEnvB} environments={environments} />
          <TextField label="Second case id" value={idB} onChange={(event) => setIdB(event.target.value)} required fullWidth />
        </Stack>
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
        {result ? <Alert severity={result.same ? 'success' : 'warning'}>{result.message}</Alert> : null}
      </Box>
      {result && !result.same ? (
        <Box sx={{ mt: 2 }}>
          <CaseDiff left={result.a} right={result.b} leftLabel="First case" rightLabel="Second case" />
        </Box>
      ) : null}
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
      {environments.isSuccess && list.length === 0 ? (
        <Alert severity="info">No case environment is configured on this deployment.</Alert>
      ) : null}
      {list.length > 0 ? (
        <Stack spacing={3}>
          <CopySection environments={list} />
          <DiffSection environments={list} />
        </Stack>
      ) : null}
    </>
  );
}
