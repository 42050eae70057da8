import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { SEARCH_DEBOUNCE_MS } from '@patientsim/domain/common/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableProps, SEARCH_HINT } from './data-table';

type Row = { id: string; name: string };

function renderTable(overrides: Partial<DataTableProps<Row>> = {}) {
  const props: DataTableProps<Row> = {
    label: 'People',
    columns: [{ key: 'name', header: 'Name', render: (row) => row.name }],
    rows: [
      { id: '1', name: 'Ada' },
      { id: '2', name: 'Grace' },
    ],
    getRowKey: (row) => row.id,
    total: 120,
    page: 0,
    pageSize: 50,
    onPageChange: vi.fn(),
    onSearch: vi.fn(),
    isLoading: false,
    isFetching: false,
    error: null,
    onRetry: vi.fn(),
    emptyMessage: 'No users to display',
    ...overrides,
  };
  render(<DataTable {...props} />);
  return props;
}

describe('DataTable', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the rows and "page X of N", and pages', () => {
    const props = renderTable({ page: 1 });
    expect(screen.getByRole('table', { name: 'People' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Grace' })).toBeInTheDocument();
    expect(screen.getByText('page 2 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(props.onPageChange).toHaveBeenCalledWith(2);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(props.onPageChange).toHaveBeenCalledWith(0);
  });

  it('disables paging at the ends', () => {
    renderTable({ total: 2 });
    expect(screen.getByText('page 1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('sends the search 500 ms after typing stops, never for 1 or 2 characters, and clears with empty', async () => {
    const props = renderTable();
    const box = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'ad' } });
    expect(screen.getByText(SEARCH_HINT)).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2);
    });
    expect(props.onSearch).not.toHaveBeenCalled();

    fireEvent.change(box, { target: { value: 'ada' } });
    await act(async () => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    });
    fireEvent.change(box, { target: { value: 'ada l' } });
    await act(async () => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    });
    expect(props.onSearch).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(props.onSearch).toHaveBeenCalledTimes(1);
    expect(props.onSearch).toHaveBeenLastCalledWith('ada l');
    expect(screen.queryByText(SEARCH_HINT)).not.toBeInTheDocument();

    fireEvent.change(box, { target: { value: '' } });
    await act(async () => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(props.onSearch).toHaveBeenLastCalledWith('');
  });

  it('keeps the rows with a progress bar while the next page loads', () => {
    renderTable({ isFetching: true });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Ada' })).toBeInTheDocument();
  });

  it('shows the empty state with its message', () => {
    renderTable({ rows: [], total: 0 });
    expect(screen.getByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByText('No users to display')).toBeInTheDocument();
  });

  it('shows every row without a pager when it is not paged', () => {
    render(
      <DataTable<Row>
        label="Groups"
        columns={[{ key: 'name', header: 'Name', render: (row) => row.name }]}
        rows={[{ id: '1', name: 'Cohort A' }]}
        getRowKey={(row) => row.id}
        isLoading={false}
        isFetching={false}
        error={null}
        onRetry={vi.fn()}
        emptyMessage="No groups to display"
      />,
    );
    expect(screen.getByRole('cell', { name: 'Cohort A' })).toBeInTheDocument();
    expect(screen.queryByText(/^page /)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
  });

  it('shows the error with its message, or "Unknown error", and retries', () => {
    const props = renderTable({ error: new Error('Boom') });
    expect(screen.getByText('An error occurred')).toBeInTheDocument();
    expect(screen.getByText('Boom')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(props.onRetry).toHaveBeenCalled();
  });

  it('falls back to "Unknown error"', () => {
    renderTable({ error: {} });
    expect(screen.getByText('Unknown error')).toBeInTheDocument();
  });

  describe('on a phone (390 px wide)', () => {
    const desktopWidth = window.innerWidth;
    beforeEach(() => {
      window.innerWidth = 390;
    });
    afterEach(() => {
      window.innerWidth = desktopWidth;
    });

    type Person = { id: string; name: string; email: string };
    const columns = [
      { key: 'name', header: 'Name', render: (row: Person) => row.name },
      { key: 'email', header: 'Email', render: (row: Person) => row.email },
      {
        key: 'actions',
        header: 'Actions',
        isRowActions: true,
        render: (row: Person) => <button type="button">{`Actions for ${row.name}`}</button>,
      },
    ];

    function renderCards(overrides: Partial<DataTableProps<Person>> = {}) {
      render(
        <DataTable<Person>
          label="People"
          columns={columns}
          rows={[
            { id: '1', name: 'Ada', email: 'ada@example.test' },
            { id: '2', name: 'Grace', email: 'grace@example.test' },
          ]}
          getRowKey={(row) => row.id}
          total={2}
          page={0}
          pageSize={50}
          onPageChange={vi.fn()}
          isLoading={false}
          isFetching={false}
          error={null}
          onRetry={vi.fn()}
          emptyMessage="No users to display"
          {...overrides}
        />,
      );
    }

    it('shows each row as a card from the same columns: the first as title, actions beside it, the rest labelled', () => {
      renderCards();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const cards = within(screen.getByRole('list', { name: 'People' })).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      const grace = within(cards[1] as HTMLElement);
      expect(grace.getByText('Grace')).toBeInTheDocument();
      expect(grace.getByRole('term')).toHaveTextContent('Email');
      expect(grace.getByRole('definition')).toHaveTextContent('grace@example.test');
      expect(grace.getByRole('button', { name: 'Actions for Grace' })).toBeInTheDocument();
      // The actions are no labelled line of their own.
      expect(grace.queryByText('Actions')).not.toBeInTheDocument();
    });

    it('keeps the cards with a progress bar while the next page loads, and shows the empty state', () => {
      renderCards({ isFetching: true });
      expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
      expect(screen.getByRole('list', { name: 'People' })).toHaveAttribute('aria-busy', 'true');
      cleanup();
      renderCards({ rows: [], total: 0 });
      expect(screen.getByText('No users to display')).toBeInTheDocument();
    });
  });
});
