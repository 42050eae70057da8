import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import type { TemplateCase } from '@patientsim/domain/cases/template-case.schemas';
import { useState } from 'react';
import { replyMessageOr } from '../../../lib/api-client';
import { useTemplateCases } from '../api/get-template-cases';
import { usePublishTemplate } from '../api/publish-template';
import { useSetTemplateAppLab } from '../api/set-template-app-lab';
import { TemplateActionDialog } from './template-action-dialog';
import {
  type TemplateAction,
  type TemplateTab,
  actionTexts,
  actionVariables,
  hasAppLab,
  sortTemplates,
} from './template-actions';
import { TemplatePreview } from './template-preview';
import { TemplateTable } from './template-table';

type Pending = { template: TemplateCase; action: TemplateAction };

/** One template library (a tab): the list by name beside the preview of the selected case. */
export function TemplateLibrary({ tab }: { tab: TemplateTab }) {
  const templates = useTemplateCases(tab.productType);
  const publish = usePublishTemplate(tab.productType);
  const appLab = useSetTemplateAppLab(tab.productType);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const showAppLab = hasAppLab(tab.productType);

  const cases = sortTemplates(templates.data ?? []);
  const selected = cases.find((item) => item.id === selectedId) ?? cases[0] ?? null;
  const mutation = pending && actionVariables(pending.action, pending.template.id).kind === 'appLab' ? appLab : publish;
  const isBusy = publish.isPending || appLab.isPending;
  const texts = pending ? actionTexts(pending.action, pending.template.name, tab.label) : null;

  const ask = (template: TemplateCase, action: TemplateAction) => {
    publish.reset();
    appLab.reset();
    setPending({ template, action });
  };
  const confirm = () => {
    if (!pending || !texts) return;
    const variables = actionVariables(pending.action, pending.template.id);
    const onSuccess = () => {
      setPending(null);
      setNotice(texts.done);
    };
    if (variables.kind === 'publish') publish.mutate({ id: variables.id, published: variables.published }, { onSuccess });
    else appLab.mutate({ id: variables.id, applab: variables.applab }, { onSuccess });
  };

  if (templates.isError && !templates.data) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void templates.refetch()}>
            Retry
          </Button>
        }
      >
        <AlertTitle>{CASE_TEXTS.loadError}</AlertTitle>
        {replyMessageOr(templates.error, CASE_TEXTS.unknownError)}
      </Alert>
    );
  }

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
        alignItems: 'start',
      }}
    >
      <Box sx={{ position: 'relative', minWidth: 0 }}>
        {templates.isFetching && !templates.isPending ? (
          <LinearProgress aria-label="Refreshing" sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1 }} />
        ) : null}
        <TemplateTable
          label={`${tab.label} templates`}
          cases={cases}
          selectedId={selected?.id ?? null}
          showAppLab={showAppLab}
          isLoading={templates.isPending}
          isBusy={isBusy}
          onSelect={setSelectedId}
          onAction={ask}
        />
      </Box>
      {templates.isPending ? (
        <Skeleton variant="rounded" height={420} aria-hidden="true" />
      ) : selected ? (
        <TemplatePreview
          template={selected}
          productLabel={tab.label}
          showAppLab={showAppLab}
          isBusy={isBusy}
          onAction={(action) => ask(selected, action)}
        />
      ) : null}
      <TemplateActionDialog
        texts={texts}
        isPending={mutation.isPending}
        error={mutation.error}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Box>
  );
}
