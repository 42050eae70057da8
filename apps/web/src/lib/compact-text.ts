import { CASE_PREVIEW_WORDS } from '@patientsim/domain/cases/case-list';

/** The compact preview text (spec section 9): the first CASE_PREVIEW_WORDS words, with an ellipsis when cut. */
export function compactText(text: string): { text: string; isCut: boolean } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= CASE_PREVIEW_WORDS) return { text: words.join(' '), isCut: false };
  return { text: `${words.slice(0, CASE_PREVIEW_WORDS).join(' ')}…`, isCut: true };
}

/** A dispatch text of a case (learning objectives, chief complaint) and whether its author shows it. */
export type DispatchText = { caption: { en: string }; displayed: boolean } | null | undefined;

/** A dispatch text the case's author chose to show (`displayed`); a hidden one stays out of any preview. */
export function shownText(text: DispatchText): string | null {
  return text?.displayed ? text.caption.en : null;
}
