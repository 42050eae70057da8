import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../../testing/render';
import { SeatsEditor } from './seats-editor';

describe('SeatsEditor', () => {
  it('saves a whole number of seats, once it differs from the current count', async () => {
    const onSave = vi.fn();
    const user = userEvent.setup();
    renderWithRouter(<SeatsEditor seats={10} isPending={false} onSave={onSave} />);

    const save = screen.getByRole('button', { name: 'Save seats' });
    expect(save).toBeDisabled();
    const seats = screen.getByRole('textbox', { name: 'Seats' });
    await user.clear(seats);
    await user.type(seats, ' 25 {Enter}');

    expect(onSave).toHaveBeenCalledWith(25);
  });

  it('says seats must be an integer and saves nothing else', async () => {
    const onSave = vi.fn();
    const user = userEvent.setup();
    renderWithRouter(<SeatsEditor seats={10} isPending={false} onSave={onSave} />);

    const seats = screen.getByRole('textbox', { name: 'Seats' });
    await user.clear(seats);
    await user.type(seats, '2.5');
    expect(await screen.findByText('Seats must be an integer')).toBeInTheDocument();
    expect(seats).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Save seats' })).toBeDisabled();
    await user.type(seats, '{Enter}');

    expect(onSave).not.toHaveBeenCalled();
  });
});
