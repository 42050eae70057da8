import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { type DispatchText, compactText, shownText } from '../lib/compact-text';

type HeadingLevel = 'h3' | 'h4';

function CompactText({ label, text, heading }: { label: string; text: string | null; heading: HeadingLevel }) {
  const [isFull, setIsFull] = useState(false);
  if (!text?.trim()) return null;
  const compact = compactText(text);
  return (
    <Box>
      <Typography variant="subtitle2" component={heading}>
        {label}
      </Typography>
      <Typography variant="body2">{isFull ? text : compact.text}</Typography>
      {compact.isCut ? (
        <Button size="small" onClick={() => setIsFull((value) => !value)} aria-expanded={isFull}>
          {isFull ? 'Show less' : 'Show more'}
        </Button>
      ) : null}
    </Box>
  );
}

export type DispatchTextsProps = {
  dispatch: { learningObjectives?: DispatchText; chiefComplaint?: DispatchText } | null | undefined;
  /** The level of the two texts' headings under the preview's title. */
  heading: HeadingLevel;
};

/**
 * A case preview's learning objectives and scenario information (spec section 2): the dispatch
 * texts its author shows (`displayed`), compact: cut at 20 words (spec section 9) with Show more.
 * A hidden or empty text leaves its section out. The scenario library and the Templates screen
 * both preview cases with it.
 */
export function DispatchTexts({ dispatch, heading }: DispatchTextsProps) {
  return (
    <>
      <CompactText label="Learning objectives" text={shownText(dispatch?.learningObjectives)} heading={heading} />
      {/* The dispatch's chief complaint is the scenario's opening information. */}
      <CompactText label="Scenario information" text={shownText(dispatch?.chiefComplaint)} heading={heading} />
    </>
  );
}
