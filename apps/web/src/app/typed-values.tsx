import { type ReactNode, useEffect } from 'react';

/** A field of the prerendered page and what was typed into it before the scripts ran. */
export type TypedValue = { input: HTMLInputElement; value: string };

/** What was typed into the prerendered page's fields: their values that differ from those rendered. */
export function readTypedValues(container: HTMLElement): TypedValue[] {
  return [...container.querySelectorAll('input')]
    .filter((input) => input.type !== 'checkbox' && input.type !== 'radio' && input.value !== input.defaultValue)
    .map((input) => ({ input, value: input.value }));
}

/**
 * Hands each typed value to the form that now owns its field, as typing does. React keeps the
 * text in the field when it hydrates, but its form state starts from the rendered value, and a
 * form library may reset the field; so each value is set again and announced with an `input`
 * event. React remembers the last value it saw set on a field and reports a change only from it:
 * the field is first set to empty through its own property (which React sees), then to the typed
 * text through the element's prototype (which it does not). A field typed into again since
 * hydration is left alone: React has reported that.
 */
export function restoreTypedValues(values: readonly TypedValue[]): void {
  for (const { input, value } of values) {
    if (!input.isConnected || (input.value !== value && input.value !== '')) continue;
    input.value = '';
    // The element's own setter, called on the field: React's tracking of the field does not see it.
    Reflect.set(HTMLInputElement.prototype, 'value', value, input);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/**
 * Calls `onHydrated` once the page below it has hydrated (its effects run after those of every
 * component inside it). It renders its children only, so the tree and its ids match the
 * prerendered page's.
 */
export function AfterHydration({ onHydrated, children }: { onHydrated: () => void; children: ReactNode }) {
  useEffect(onHydrated, [onHydrated]);
  return children;
}
