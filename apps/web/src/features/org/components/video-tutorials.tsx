import CloseIcon from '@mui/icons-material/Close';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideo';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import {
  TUTORIAL_CATEGORIES,
  TUTORIAL_CATEGORY_LABEL,
  type Tutorial,
  type TutorialCategory,
} from '@patientsim/domain/tutorials/tutorial.schemas';
import { useId, useState } from 'react';
import { ErrorBoundary } from '../../../components/error-boundary';
import { LoadingState } from '../../../components/loading-state';
import { errorMessage } from '../../../lib/api-client';
import { useTutorials } from '../api/get-tutorials';

/** Verbatim from the spec (section 2). */
export const VIDEO_TUTORIALS_TITLE = 'Video Tutorials';
/** The error state's wording (spec section 2, org users page). */
export const TUTORIALS_ERROR_TITLE = 'An error occurred';
export const TUTORIALS_UNKNOWN_ERROR = 'Unknown error';
export const NO_TUTORIALS_MESSAGE = 'No video tutorials in this category yet.';
export const CLOSE_TUTORIALS_LABEL = 'Close video tutorials';

function TutorialVideo({ tutorial }: { tutorial: Tutorial }) {
  const titleId = useId();
  return (
    <Box component="figure" sx={{ m: 0 }}>
      <Typography id={titleId} component="figcaption" variant="subtitle2" sx={{ mb: 0.5 }}>
        {tutorial.title}
      </Typography>
      {/* Native controls are keyboard operable; preload none keeps a closed drawer from fetching every video. */}
      <Box
        component="video"
        controls
        preload="none"
        src={tutorial.mediaUrl}
        aria-labelledby={titleId}
        sx={{ display: 'block', width: '100%', aspectRatio: '16 / 9', bgcolor: 'common.black', borderRadius: 1 }}
      />
    </Box>
  );
}

function CategoryPanel({
  category,
  tutorials,
  isOpenByDefault,
}: {
  category: TutorialCategory;
  tutorials: readonly Tutorial[];
  isOpenByDefault: boolean;
}) {
  const summaryId = useId();
  return (
    <Accordion defaultExpanded={isOpenByDefault} disableGutters>
      {/* The accordion wraps the details in a region labelled by the summary, from these ids. */}
      <AccordionSummary expandIcon={<ExpandMoreIcon />} id={summaryId} aria-controls={`${summaryId}-panel`}>
        {TUTORIAL_CATEGORY_LABEL[category]}
      </AccordionSummary>
      <AccordionDetails sx={{ display: 'grid', gap: 2 }}>
        {tutorials.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {NO_TUTORIALS_MESSAGE}
          </Typography>
        ) : (
          tutorials.map((tutorial) => <TutorialVideo key={tutorial._id} tutorial={tutorial} />)
        )}
      </AccordionDetails>
    </Accordion>
  );
}

function TutorialCategories({ activeOrgId }: { activeOrgId: string | null }) {
  const tutorials = useTutorials(activeOrgId);
  if (tutorials.isPending) return <LoadingState label="Loading video tutorials..." />;
  if (tutorials.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void tutorials.refetch()}>
            Retry
          </Button>
        }
      >
        <AlertTitle>{TUTORIALS_ERROR_TITLE}</AlertTitle>
        {errorMessage(tutorials.error, TUTORIALS_UNKNOWN_ERROR)}
      </Alert>
    );
  }
  return (
    <div>
      {TUTORIAL_CATEGORIES.map((category, index) => (
        <CategoryPanel key={category} category={category} tutorials={tutorials.data[category]} isOpenByDefault={index === 0} />
      ))}
    </div>
  );
}

/**
 * The 'Video Tutorials' button of the org management area and its drawer (spec section 2): an
 * accordion per category, the first open, each tutorial an embedded video.
 */
export function VideoTutorials({ activeOrgId }: { activeOrgId: string | null }) {
  const [isOpen, setIsOpen] = useState(false);
  const titleId = useId();
  const close = () => setIsOpen(false);
  return (
    <>
      <Button
        variant="outlined"
        fullWidth
        startIcon={<OndemandVideoIcon />}
        aria-haspopup="dialog"
        onClick={() => setIsOpen(true)}
        sx={{ mt: 2 }}
      >
        {VIDEO_TUTORIALS_TITLE}
      </Button>
      <Drawer
        anchor="right"
        open={isOpen}
        onClose={close}
        // Above the app bar (which sits above the side nav's drawer): this one is modal.
        sx={{ zIndex: (theme) => theme.zIndex.modal }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-modal': true,
            'aria-labelledby': titleId,
            sx: { width: { xs: '100%', sm: 480 }, p: 2 },
          },
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2 }}>
          <Typography id={titleId} component="h2" variant="h6">
            {VIDEO_TUTORIALS_TITLE}
          </Typography>
          <IconButton aria-label={CLOSE_TUTORIALS_LABEL} onClick={close} edge="end">
            <CloseIcon />
          </IconButton>
        </Box>
        <ErrorBoundary message="The video tutorials could not be shown.">
          <TutorialCategories activeOrgId={activeOrgId} />
        </ErrorBoundary>
      </Drawer>
    </>
  );
}
