import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SEARCH_DEBOUNCE_MS } from '@patientsim/domain/common/constants';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SearchAutocomplete } from './search-autocomplete';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderField(onSearch: (term: string) => void) {
  return render(
    <SearchAutocomplete<string>
      label="Organization"
      value={null}
      onChange={() => {}}
      options={[]}
      isLoading={false}
      onSearch={onSearch}
      getOptionLabel={(option) => option}
      isOptionEqualToValue={(option, selected) => option === selected}
      noResultsText="No organizations found"
      promptText="Type to search"
    />,
  );
}

it('searches once typing has stopped for the debounce time', () => {
  const onSearch = vi.fn();
  renderField(onSearch);
  fireEvent.change(screen.getByLabelText('Organization'), { target: { value: 'river' } });
  expect(onSearch).not.toHaveBeenCalled();
  act(() => {
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
  });
  expect(onSearch).toHaveBeenCalledExactlyOnceWith('river');
});

it('searches nothing once the field is gone, though typing stopped less than the debounce time before', () => {
  const onSearch = vi.fn();
  const { unmount } = renderField(onSearch);
  fireEvent.change(screen.getByLabelText('Organization'), { target: { value: 'river' } });
  unmount();
  act(() => {
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
  });
  expect(onSearch).not.toHaveBeenCalled();
});
