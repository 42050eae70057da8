import { describe, expect, it } from 'vitest';
import { compactText, shownText } from './compact-text';

describe('compactText', () => {
  it('cuts at 20 words', () => {
    const words = Array.from({ length: 25 }, (_, index) => `w${index + 1}`).join(' ');
    expect(compactText(words)).toEqual({ text: `${words.split(' ').slice(0, 20).join(' ')}…`, isCut: true });
    expect(compactText('  a short  text ')).toEqual({ text: 'a short text', isCut: false });
  });
});

describe('shownText', () => {
  it('gives the caption only when its author shows it', () => {
    expect(shownText({ caption: { en: 'Chest pain' }, displayed: true })).toBe('Chest pain');
    expect(shownText({ caption: { en: 'Chest pain' }, displayed: false })).toBeNull();
    expect(shownText(null)).toBeNull();
    expect(shownText(undefined)).toBeNull();
  });
});
